import type { InjectionToken } from 'tsyringe';

/**
 * Reads one on-chain payment (CONTRACT.md section 7 "MPP credential"; issue 10 item 3). Pure chain
 * reading: it consumes nothing and stores nothing (the caller consumes nonce and transaction hash
 * atomically after a successful verification).
 */
export interface MppPaymentExpectation {
  /** The transaction hash the credential names (0x + 64 hex). */
  readonly transaction: `0x${string}`;
  /** The ERC-20 token contract that must have moved (MPP_TOKEN_ADDRESS). */
  readonly token: `0x${string}`;
  /** Who must have received it (MPP_RECIPIENT). */
  readonly recipient: `0x${string}`;
  /** The least one sender's Transfer logs to `recipient` must sum to, in the token's base units. */
  readonly minAmount: bigint;
  /** The challenge's issue time: a payment in a block older than this does not count. */
  readonly notBefore: Date;
  /** MPP_CONFIRMATIONS: blocks on top of the payment's, the payment's own counting as one. */
  readonly confirmations: number;
}

/** One sender of Transfer logs to the recipient, and what their own logs sum to (base units). */
export interface MppPayerShare {
  /** The logs' `from` (not the transaction's sender: a contract may pay on someone's behalf). */
  readonly payer: `0x${string}`;
  readonly amount: bigint;
}

export interface VerifiedMppPayment {
  /**
   * Each sender whose own Transfer logs to the recipient sum to at least `minAmount`, in the order of
   * their first log; never empty. Amounts are never added across senders: the one whose signature
   * the credential carries claims the payment, for what they paid (decision 0411).
   */
  readonly payers: readonly MppPayerShare[];
  readonly blockNumber: bigint;
  readonly blockTime: Date;
}

/** Why a payment does not count; each is a 402 at the gateway with this reason. */
export type MppRejection =
  | 'TX_NOT_FOUND'
  | 'TX_FAILED'
  | 'NOT_ENOUGH_CONFIRMATIONS'
  | 'PAID_BEFORE_CHALLENGE'
  | 'NO_TRANSFER_TO_RECIPIENT'
  | 'UNDERPAID';

export interface MppPaymentVerifier {
  /**
   * Resolves with the payment, or rejects with MppPaymentRejectedError (the payment does not count)
   * or UpstreamUnavailableError (the RPC failed or timed out: nothing can be said, 502).
   */
  verify(expected: MppPaymentExpectation): Promise<VerifiedMppPayment>;
  /** The chain id the RPC serves; checked against MPP_CHAIN_ID at start. */
  chainId(): Promise<number>;
}

export const MPP_PAYMENT_VERIFIER: InjectionToken<MppPaymentVerifier> = Symbol('MppPaymentVerifier');
