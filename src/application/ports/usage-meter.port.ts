import type { InjectionToken } from 'tsyringe';
import type { UsageExhaustedError } from '../../domain/billing/billing.errors.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { ChatAccess } from './unit-of-work.port.js';
import type { RuntimeCaller } from './instance-repository.port.js';

/**
 * Units held for one paid call, until it is settled or released. Stored: the row is written by the
 * statement that takes the units, so a reservation exists exactly when its units are taken.
 */
export interface UsageReservation {
  id: string;
  payer: UserId;
  units: number;
  /** The UTC day the units were taken from (usage resets at 00:00 UTC). */
  day: string;
  /** The payer's API key the call is made under, whose day counter moved with the payer's (decision 0425). */
  keyId?: string;
}

/** UsageMeter.reserveWithChatAccess's answer. */
export interface ReservedWithChatAccess {
  readonly taken: UsageReservation | UsageExhaustedError;
  readonly chatAccess: ChatAccess;
  /** Units the payer could still reserve once this statement ran (after the reservation when taken); the payer's figure, whatever a key's cap leaves. */
  readonly available: number;
}

/** UsageMeter.reserveWithRuntimeCaller's answer. */
export interface ReservedWithRuntimeCaller {
  readonly taken: UsageReservation | UsageExhaustedError;
  /** Who the gateway token belongs to, as SystemInstanceRepository.runtimeCaller reads it; null for no instance's token. */
  readonly caller: RuntimeCaller | null;
  /** As ReservedWithChatAccess's. */
  readonly available: number;
}

export interface UsageSnapshot {
  dailyUnits: number;
  used: number;
  remaining: number;
  credits: number;
}

/**
 * The one metering of paid calls (CONTRACT.md section 6), shared by the AI layer, agent chat and
 * the gateway. Each method is its own short transaction: never held across the vendor call.
 */
export interface UsageMeter {
  /**
   * Atomic: one conditional UPDATE takes `units` from the payer's day allowance, then credits;
   * of concurrent callers exactly as many succeed as the balance covers. Throws UsageExhaustedError
   * (USAGE_EXHAUSTED) and changes nothing when it cannot cover them. The same statement stores
   * the reservation, open. Visible to every other caller at once; durable shortly after (see settle).
   *
   * With `keyId` (the payer's API key the call is made under), the same statement also takes the
   * units from the key's day counter, and refuses with KeyBudgetExhaustedError (a
   * UsageExhaustedError, KEY_BUDGET_EXHAUSTED) when they would pass the key's `dailyUnits`: the
   * key's cap holds under concurrency exactly as the payer's units do, and settling or releasing
   * moves the key's counter by exactly what it moves the payer's. A key not the payer's, or
   * deleted, is refused (USAGE_EXHAUSTED, nothing available).
   */
  reserve(payer: UserId, units: number, keyId?: string): Promise<UsageReservation>;
  /**
   * `reserve`, and in the same statement what the payer may do on `/api/ai/chat` (HotReads'
   * `chatAccess`): one round trip for both. The refusal (UsageExhaustedError) is returned in
   * `taken`, not thrown, so the access is known either way; the reservation, when taken, is the
   * caller's to settle or release. `available` is what the same statement saw the payer could still
   * reserve after it (the day's allowance left, then credits): a view for the caller's own guesses,
   * never a promise (other calls move it the moment after).
   */
  reserveWithChatAccess(payer: UserId, units: number, keyId?: string): Promise<ReservedWithChatAccess>;
  /**
   * `reserve` for `payer`, and in the same statement who makes an agent runtime's call: the
   * instance whose gateway token hashes to `tokenHash`, and whether `agentId` is its user's
   * (SystemInstanceRepository.runtimeCaller). As reserveWithChatAccess: the refusal returned in
   * `taken`; a reservation taken for a payer the caller turns out not to be is the caller's to release.
   * Never under a key: a runtime's calls are its owner's.
   */
  reserveWithRuntimeCaller(payer: UserId, units: number, tokenHash: Buffer, agentId: string): Promise<ReservedWithRuntimeCaller>;
  /**
   * Replaces an open reservation with the real amount; never refuses (an overrun beyond the balance
   * is waived). The stored payer, day and units are used. Idempotent and atomic: of any number of
   * concurrent or repeated settle/release calls on one reservation exactly one closes it and adjusts
   * the balance; the others change nothing. Resolves true for the call that closed it, false when it
   * was already closed (or never existed).
   *
   * The reserve's commit does not wait for the disk, so a crash of the database can lose a
   * reservation whose call then completes: given the whole reservation (the caller's copy), a
   * reservation not stored at all is stored settled and charged as an overrun of nothing reserved.
   * Given only `id`, that reads as never existed. `handedOver` is called as soon as the closing
   * statement has been written to the database connection, before its answer: a caller that must
   * not answer its own client before the settlement is on its way waits for that (then even its own
   * crash cannot lose the settlement), not for the commit.
   */
  settle(reservation: Pick<UsageReservation, 'id'> & Partial<UsageReservation>, actualUnits: number, handedOver?: () => void): Promise<boolean>;
  /** Gives an open reservation's units back (the call failed): settle's guarantees, with 0 units used. */
  release(reservation: Pick<UsageReservation, 'id'>): Promise<boolean>;
  /**
   * The stale sweep's release: as `release`, but only while the lease was last renewed before
   * `cutoff`, checked in the closing statement itself, so a renewal landing between the sweep's
   * read and its release keeps the reservation open.
   */
  releaseStale(reservation: Pick<UsageReservation, 'id'>, cutoff: Date): Promise<boolean>;
  /**
   * Renews the lease of open reservations whose calls are still running in this process (one
   * statement for all of them): the stale sweep never releases a reservation renewed within
   * RESERVATION_STALE_MS. Closed or unknown ids are ignored. Resolves with how many were renewed.
   */
  renew(ids: readonly string[]): Promise<number>;
  /** Open reservations whose lease was last taken or renewed before `cutoff`, oldest first, at most `limit`: candidates for release. */
  openBefore(cutoff: Date, limit: number): Promise<UsageReservation[]>;
  /** Today's figures for the payer. */
  usage(payer: UserId): Promise<UsageSnapshot>;
}
export const USAGE_METER: InjectionToken<UsageMeter> = Symbol('UsageMeter');
