import type { InjectionToken } from 'tsyringe';
import type { SiweFields } from '../../domain/identity/siwe-rules.js';

/**
 * EIP-4361 messages: reading their fields, and checking that the message's address signed it,
 * whatever kind of account that is (an EOA, a deployed ERC-1271 wallet, an undeployed ERC-6492 one).
 */
export interface SiweVerifier {
  /** The fields found in the text; absent ones are undefined (the caller decides what is required). */
  parse(message: string): SiweFields;
  /**
   * True when `address` signed `message` (EIP-191). Throws UpstreamUnavailableError when the chain
   * must be asked and does not answer, ChainNotConfiguredError when it must be asked and no node
   * is configured.
   */
  isSignedBy(p: { message: string; signature: `0x${string}`; address: `0x${string}` }): Promise<boolean>;
}
export const SIWE_VERIFIER: InjectionToken<SiweVerifier> = Symbol('SiweVerifier');
