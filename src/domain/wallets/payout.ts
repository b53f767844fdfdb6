import { DomainError } from '../shared/domain-error.js';

/**
 * One transfer a user's wallet is to make, kept as an outbox row. Its status only moves forward:
 * `pending` (nothing broadcast) → `submitted` (signed, hash recorded before the broadcast) →
 * `confirmed` or `failed` (reverted on chain). A `pending` payout may also end `failed` when it was
 * refused before anything was broadcast. A `submitted` payout is never signed again: its recorded
 * bytes are only checked and broadcast again, and when a node cannot tell whether they were mined
 * it is parked for an operator. That is what makes a payout pay at most once.
 */
export type PayoutStatus = 'pending' | 'submitted' | 'confirmed' | 'failed';

export interface Payout {
  id: string;
  userId: string;
  executionId: string | null;
  position: number;
  idempotencyKey: string | null;
  requestHash: string;
  to: `0x${string}`;
  /** Token units (the token's smallest unit). */
  amount: bigint;
  amountCents: number | null;
  status: PayoutStatus;
  from: string | null;
  transactionHash: `0x${string}` | null;
  nonce: number | null;
  rawTransaction: `0x${string}` | null;
  lastError: string | null;
  createdAt: Date;
}

/** A transfer signed at a nonce: what is recorded before it is broadcast. */
export interface SignedTransfer {
  from: string;
  hash: `0x${string}`;
  nonce: number;
  raw: `0x${string}`;
}

/**
 * What recording a signed transfer came to: `recorded` (it may be broadcast); `lost` (another run
 * recorded this payout's transfer first); `nonce-taken` (another payout of the wallet holds that
 * nonce: sign again at the next). Only a `recorded` transfer is ever broadcast.
 */
export type RecordOutcome = 'recorded' | 'lost' | 'nonce-taken';

export const isFinal = (p: Pick<Payout, 'status'>) => p.status === 'confirmed' || p.status === 'failed';

/** An idempotency key already used for another payment (other recipient or amount). HTTP 409. */
export class IdempotencyKeyReusedError extends DomainError {
  constructor() {
    super('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was used for another payment; use a new key for a new payment');
  }
}

/** A transfer that reverted on chain: final, nothing was paid. HTTP 502. */
export class PayoutRevertedError extends DomainError {
  constructor(details: Record<string, unknown>) {
    super('UPSTREAM_UNAVAILABLE', 'The transfer reverted on chain; nothing was paid', details);
  }
}
