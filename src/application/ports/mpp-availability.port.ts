import type { InjectionToken } from 'tsyringe';
import type { MppPaymentVerifier } from './mpp-payment-verifier.port.js';
import type { MppTerms } from './gateway-settings.port.js';
import type { TransferAuthorizationChain } from './transfer-authorization-chain.port.js';

export interface OfferedMpp {
  readonly terms: MppTerms;
  readonly verifier: MppPaymentVerifier;
  /** EIP-3009 payments (x402, MPP's evm authorizations): null without MPP_SETTLER_PRIVATE_KEY. */
  readonly authorizations: TransferAuthorizationChain | null;
}

/** Whether the gateway offers MPP now: configured, and its RPC serves MPP_CHAIN_ID. */
export interface MppAvailability {
  offered(): Promise<boolean>;
  /** The terms and the chain's readers while MPP is offered, else null. */
  current(): Promise<OfferedMpp | null>;
  /** Asks the RPC for its chain id once at a time; resolves whether MPP is offered. Never rejects. */
  check(): Promise<boolean>;
}

/** Built in bootstrap (the verifier exists only when MPP is configured). */
export const MPP_AVAILABILITY: InjectionToken<MppAvailability> = Symbol('MppAvailability');
