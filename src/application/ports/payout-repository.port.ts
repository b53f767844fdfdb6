import type { Payout, RecordOutcome, SignedTransfer } from '../../domain/wallets/payout.js';

export interface NewPayout {
  executionId: string | null;
  position: number;
  idempotencyKey: string | null;
  requestHash: string;
  to: `0x${string}`;
  amount: bigint;
  amountCents: number | null;
}

/** The acting user's payouts (user unit of work; RLS: their own rows only). */
export interface PayoutRepository {
  insert(userId: string, p: NewPayout): Promise<Payout>;
  get(id: string): Promise<Payout | null>;
  /** Locks the row until the transaction ends: the status read is the one the update acts on. */
  getForUpdate(id: string): Promise<Payout | null>;
  listForExecutions(executionIds: readonly string[]): Promise<Payout[]>;
  byIdempotencyKey(key: string): Promise<Payout | null>;
  /** The latest payout without a key for the same request that is unfinished, or was made since `since`. */
  recentSameRequest(requestHash: string, since: Date): Promise<Payout | null>;
  /** Serialises, until the transaction ends, the acting user's requests with one key or request hash. */
  lockRequest(key: string): Promise<void>;
  /** How many of the user's payouts are not finished (neither confirmed nor failed). */
  countUnfinished(): Promise<number>;
  /**
   * Claims a pending payout for signing, in one conditional statement: it is unclaimed, or its
   * claim is older than `leaseMs` (its run died before recording). Returns the claim's token, or
   * null when the payout is not pending or another run holds it.
   */
  claim(id: string, leaseMs: number): Promise<string | null>;
  /**
   * Records the signed transfer (`submitted`) only while `claim` still holds the pending payout and
   * no other payout of the wallet holds its nonce. `lost`: another run recorded its own transfer
   * first; `nonce-taken`: another payout holds the nonce. Either way this one must never be broadcast.
   */
  markSubmitted(id: string, claim: string, signed: SignedTransfer): Promise<RecordOutcome>;
  /** The wallet's next nonce by the payouts recorded from it (0 when none): the database hands nonces out. */
  nextNonce(from: string): Promise<number>;
  /** The raw bytes of the wallet's submitted payouts below `nonce`, lowest first: what a later nonce waits behind. */
  unminedBefore(from: string, nonce: number): Promise<`0x${string}`[]>;
  /** Gives up `claim` on a payout still pending (nothing was recorded under it). */
  releaseClaim(id: string, claim: string): Promise<void>;
  markConfirmed(id: string): Promise<void>;
  markFailed(id: string, reason: string): Promise<void>;
  /**
   * A submitted payout an operator must look at (its nonce is used and no receipt is seen): marked
   * parked (since the first time) with `reason`; it stays submitted with its hash, and is only checked.
   */
  park(id: string, reason: string): Promise<void>;
  /** A payout that failed before anything was broadcast, asked again: pending once more. */
  reopen(id: string): Promise<Payout>;
  noteError(id: string, error: string): Promise<void>;
}

/** The payouts no run has finished, across users (system unit of work: ids and owners only). */
export interface UnfinishedPayouts {
  /** Pending or submitted payouts untouched since `before`, oldest first, in each execution's order. */
  list(before: Date, limit: number): Promise<{ userId: string; payoutId: string }[]>;
}
