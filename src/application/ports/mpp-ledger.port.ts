import type { StoredChallenge } from '../../domain/gateway/mpp.js';

export interface NewChallenge {
  readonly nonce: string;
  readonly plugin: string;
  readonly amount: bigint;
  readonly token: string;
  readonly recipient: string;
  /** Hex SHA-256 of the canonical request body. */
  readonly bodyDigest: string;
  readonly issuedAt: Date;
  readonly expiresAt: Date;
}

export interface ConsumedPayment {
  readonly nonce: string;
  readonly txHash: string;
  readonly payer: string;
  readonly amount: bigint;
  readonly plugin: string;
}

/** A retry of a failed payment: the credential's nonce and hash, and the request it would pay for. */
export interface PaymentRetry {
  readonly nonce: string;
  readonly txHash: string;
  readonly plugin: string;
  /** Hex SHA-256 of the canonical request body. */
  readonly bodyDigest: string;
  /** Today's price of `plugin`, base units. */
  readonly amount: bigint;
}

/** The payment that consumed a challenge, as a retry sees it. */
export interface RecordedPayment {
  readonly txHash: string;
  readonly status: 'consumed' | 'served' | 'failed' | 'retrying';
  readonly attempts: number;
}

/**
 * The gateway's MPP challenges and the on-chain payments that consumed them. Used only inside the
 * system unit of work (the payer is a stranger: no user is known).
 */
export interface MppLedger {
  saveChallenge(c: NewChallenge): Promise<void>;
  findChallenge(nonce: string): Promise<StoredChallenge | null>;
  /**
   * Consumes the challenge's nonce and the transaction hash together. `'consumed'` for the one
   * caller that wins; `'nonce_used'` when the challenge was consumed (or expired) meanwhile;
   * `'tx_used'` when that transaction already paid for another challenge. Of concurrent callers
   * with one nonce or one hash, exactly one wins: the others wait on the row lock or the unique
   * index and then see it taken. A loser's transaction must be rolled back by the caller (the
   * nonce update may have happened): it throws after `'tx_used'`.
   */
  consume(p: ConsumedPayment, now: Date): Promise<'consumed' | 'nonce_used' | 'tx_used'>;
  /**
   * Consumes the challenge alone, unconsumed and unexpired at `now`, for a payment recorded
   * elsewhere (an EIP-3009 authorization: decision 0437). True for the one caller of any number
   * of concurrent ones that wins (a conditional UPDATE: the others wait on the row lock, then see
   * it consumed).
   */
  consumeChallenge(nonce: string, now: Date): Promise<boolean>;
  /**
   * Undoes `consumeChallenge(nonce, consumedAt)` when the payment it was consumed for recorded
   * nothing (refused, or failed before anything was signed): the challenge is payable again. Only
   * that consumption is undone (same time), never one a transaction-hash payment made.
   */
  releaseChallenge(nonce: string, consumedAt: Date): Promise<void>;
  findPayment(nonce: string): Promise<RecordedPayment | null>;
  /** Whether this transaction already paid for a call (a fast, advisory read: `consume` stays the guard). */
  transactionUsed(txHash: string): Promise<boolean>;
  /**
   * failed → retrying, at most once per payment, and only for the request its challenge bound:
   * the same plugin, body digest and price, compared in the same statement, whatever the time
   * (decision 0410). True for the one caller that may retry.
   */
  claimRetry(retry: PaymentRetry): Promise<boolean>;
  /** The plugin answered: consumed or retrying → served. */
  markServed(nonce: string): Promise<void>;
  /** The plugin failed after the payment was taken: recorded so the payer can retry once or be refunded. */
  markFailed(nonce: string, failure: string): Promise<void>;
  /** Deletes challenges that expired before `cutoff` unconsumed; resolves with how many. */
  purgeExpired(cutoff: Date): Promise<number>;
}
