import type { Payout, SignedTransfer } from '../../domain/wallets/payout.js';

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
  markSubmitted(id: string, signed: SignedTransfer): Promise<void>;
  markConfirmed(id: string): Promise<void>;
  markFailed(id: string, reason: string): Promise<void>;
  /** A submitted transaction that can never be mined: the payout is to be sent again (pending, no hash). */
  markDropped(id: string, reason: string): Promise<void>;
  /** A payout that failed before anything was broadcast, asked again: pending once more. */
  reopen(id: string): Promise<Payout>;
  noteError(id: string, error: string): Promise<void>;
}

/** The payouts no run has finished, across users (system unit of work: ids and owners only). */
export interface UnfinishedPayouts {
  /** Pending or submitted payouts untouched since `before`, oldest first, in each execution's order. */
  list(before: Date, limit: number): Promise<{ userId: string; payoutId: string }[]>;
}
