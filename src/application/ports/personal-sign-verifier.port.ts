import type { InjectionToken } from 'tsyringe';

/**
 * EIP-191 personal-message signatures checked for any kind of account: an EOA, a deployed
 * ERC-1271 wallet, an undeployed ERC-6492 one. Wallet sign-in (SiweVerifier) and the gateway's
 * MPP payer proof use the same check.
 */
export interface PersonalSignVerifier {
  /**
   * True when `address` signed `message` (EIP-191). Throws UpstreamUnavailableError when the chain
   * must be asked and does not answer, ChainNotConfiguredError when it must be asked and no node
   * is configured.
   */
  isSignedBy(p: { message: string; signature: `0x${string}`; address: `0x${string}` }): Promise<boolean>;
}

/** The MPP payer's proof, checked on the MPP chain (MPP_RPC_URL). */
export const MPP_PAYER_SIGNATURES: InjectionToken<PersonalSignVerifier> = Symbol('MppPayerSignatures');
