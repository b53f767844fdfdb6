/**
 * Metering arithmetic (CONTRACT.md section 6). One unit is 1,000 tokens; a plan grants daily
 * units that reset at 00:00 UTC; past them, credits are spent, one credit buying 100 units.
 */

export const TOKENS_PER_UNIT = 1000;
export const TTS_CHARACTERS_PER_UNIT = 1000;
export const STT_SECONDS_PER_UNIT = 60;
export const UNITS_PER_CREDIT = 100;

function requireAmount(n: number, what: string): void {
  // A negative or NaN amount is a caller bug, not a user mistake: fail loudly.
  if (!Number.isFinite(n) || n < 0) throw new RangeError(`${what} must be a finite non-negative number, got ${n}`);
}

/** Units for a model call: prompt plus completion tokens per 1,000, rounded up, at least 1 a call. */
export function unitsForTokens(totalTokens: number): number {
  requireAmount(totalTokens, 'totalTokens');
  return Math.max(1, Math.ceil(totalTokens / TOKENS_PER_UNIT));
}

/** Units for speech synthesis: 1 per 1,000 characters, rounded up, at least 1. */
export function unitsForTtsCharacters(characters: number): number {
  requireAmount(characters, 'characters');
  return Math.max(1, Math.ceil(characters / TTS_CHARACTERS_PER_UNIT));
}

/** Units for transcription: 1 per started minute of audio, at least 1. */
export function unitsForSttSeconds(seconds: number): number {
  requireAmount(seconds, 'seconds');
  return Math.max(1, Math.ceil(seconds / STT_SECONDS_PER_UNIT));
}

/** The UTC day a usage counter belongs to, `YYYY-MM-DD`; a new key is the daily reset. */
export const usageDay = (at: Date): string => at.toISOString().slice(0, 10);

/** The next 00:00 UTC after `at`: when the current day's units reset. */
export const nextUsageReset = (at: Date): Date =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));

/** A user's usage position for the current UTC day. */
export interface UsageBalance {
  /** The daily units of the plan in force now (0 without a plan: only credits then). */
  readonly dailyUnits: number;
  /** Every unit used today, including those paid with credits. */
  readonly usedToday: number;
  /**
   * Of `usedToday`, the units taken from the daily allowance when they were reserved (the rest were
   * paid with credits). Stored, not recomputed from `dailyUnits`: the plan may change while calls
   * are open. Absent, it is what a plan unchanged all day gives: min(usedToday, dailyUnits).
   */
  readonly allowanceUsedToday?: number;
  /** Whole credits on the balance. */
  readonly credits: number;
}

/*
 * Credits are whole, so they are spent in blocks: the credits charged today always equal
 * ceil(units used beyond the allowance / 100), where "beyond the allowance" is what was taken
 * from credits when each unit was reserved, never recomputed with the allowance in force later.
 * A call that crosses into a new block of 100 spends one credit; the next calls use the rest of
 * that block for free. Whatever remains of the last block lapses at the daily reset.
 *
 * Units given back (a call that used less, or failed) come off the credit-paid units first, then
 * off the allowance taken: exactly what was taken, whatever the plan is at close. A plan that
 * lapses while a call is open therefore refunds no credit that was never charged, and an upgrade
 * mid-call burns none; with a plan unchanged all day this is the same as counting against it.
 */
const allowanceUsed = (b: UsageBalance): number => b.allowanceUsedToday ?? Math.min(b.usedToday, b.dailyUnits);
const beyond = (b: UsageBalance): number => b.usedToday - allowanceUsed(b);
const blocks = (beyondUnits: number): number => Math.ceil(beyondUnits / UNITS_PER_CREDIT);
const allowanceLeft = (b: UsageBalance): number => Math.max(0, b.dailyUnits - allowanceUsed(b));

/** Units still available today: the rest of the daily units, of the open credit block, and the credits. */
export function availableUnits(b: UsageBalance): number {
  const blockLeft = blocks(beyond(b)) * UNITS_PER_CREDIT - beyond(b);
  return allowanceLeft(b) + blockLeft + b.credits * UNITS_PER_CREDIT;
}

export type ReservationPlan =
  | {
      readonly ok: true;
      readonly units: number;
      /** Part covered by the day's plan units. */
      readonly fromDailyUnits: number;
      /** Part beyond the daily units, paid by credits (new or already-open blocks). */
      readonly fromCreditUnits: number;
      /** Whole credits to deduct now. */
      readonly creditsSpent: number;
      readonly usedTodayAfter: number;
      readonly allowanceUsedTodayAfter: number;
      readonly creditsAfter: number;
    }
  | { readonly ok: false; readonly code: 'USAGE_EXHAUSTED'; readonly units: number; readonly availableUnits: number };

/**
 * How a reservation of `units` is paid: first from the day's units left under the plan in force,
 * then from credits. Refuses (ok: false, 429 `USAGE_EXHAUSTED`) when the credits cannot cover the
 * new blocks. The caller writes the `...After` values in the same statement that read the balance.
 */
export function planReservation(b: UsageBalance, units: number): ReservationPlan {
  if (!Number.isInteger(units) || units < 1) throw new RangeError(`units must be a positive integer, got ${units}`);
  const fromDailyUnits = Math.min(units, allowanceLeft(b));
  const creditsSpent = blocks(beyond(b) + units - fromDailyUnits) - blocks(beyond(b));
  if (creditsSpent > b.credits) return { ok: false, code: 'USAGE_EXHAUSTED', units, availableUnits: availableUnits(b) };
  return {
    ok: true,
    units,
    fromDailyUnits,
    fromCreditUnits: units - fromDailyUnits,
    creditsSpent,
    usedTodayAfter: b.usedToday + units,
    allowanceUsedTodayAfter: allowanceUsed(b) + fromDailyUnits,
    creditsAfter: b.credits - creditsSpent,
  };
}

export interface SettlementPlan {
  readonly usedTodayAfter: number;
  readonly allowanceUsedTodayAfter: number;
  /** Credits to add (refund, > 0) or deduct (< 0). */
  readonly creditsDelta: number;
  /** Credits the call should have cost beyond the balance: the call already happened, so they are waived. */
  readonly waivedCredits: number;
}

/**
 * Settles a reservation of `reservedUnits` to the real `actualUnits` (0 releases it after a failed
 * call), against the balance of the same UTC day. Units given back come off the credit-paid units
 * first, then the allowance taken (never recomputed with today's plan). Never refuses: a call that
 * used more than reserved takes the allowance left under the plan in force, then credits as far
 * as the balance holds; the rest is waived. A reservation from an earlier day must not be settled
 * against today's counter (its units already reset).
 */
export function planSettlement(b: UsageBalance, reservedUnits: number, actualUnits: number): SettlementPlan {
  requireAmount(reservedUnits, 'reservedUnits');
  requireAmount(actualUnits, 'actualUnits');
  const before = beyond(b);
  const back = Math.max(0, reservedUnits - actualUnits);
  const extra = Math.max(0, actualUnits - reservedUnits);
  const fromBeyond = Math.min(back, before);
  const fromAllowance = Math.min(back - fromBeyond, allowanceUsed(b));
  const toAllowance = Math.min(extra, allowanceLeft(b));
  const after = before - fromBeyond + extra - toAllowance;
  const usedTodayAfter = b.usedToday - fromBeyond - fromAllowance + extra;
  const allowanceUsedTodayAfter = allowanceUsed(b) - fromAllowance + toAllowance;
  // `0 - x` rather than `-x`: never hand the caller a negative zero.
  const blockDelta = blocks(after) - blocks(before);
  if (blockDelta <= 0) return { usedTodayAfter, allowanceUsedTodayAfter, creditsDelta: 0 - blockDelta, waivedCredits: 0 };
  const charged = Math.min(blockDelta, b.credits);
  return { usedTodayAfter, allowanceUsedTodayAfter, creditsDelta: 0 - charged, waivedCredits: blockDelta - charged };
}
