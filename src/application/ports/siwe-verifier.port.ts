import type { InjectionToken } from 'tsyringe';
import type { SiweFields } from '../../domain/identity/siwe-rules.js';
import type { PersonalSignVerifier } from './personal-sign-verifier.port.js';

/**
 * EIP-4361 messages: reading their fields, and checking that the message's address signed it,
 * whatever kind of account that is (an EOA, a deployed ERC-1271 wallet, an undeployed ERC-6492 one).
 */
export interface SiweVerifier extends PersonalSignVerifier {
  /** The fields found in the text; absent ones are undefined (the caller decides what is required). */
  parse(message: string): SiweFields;
}
export const SIWE_VERIFIER: InjectionToken<SiweVerifier> = Symbol('SiweVerifier');
