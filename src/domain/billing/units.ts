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
  /** The subscribed plan's daily units (0 without a plan: only credits then). */
  readonly dailyUnits: number;
  /** Every unit used today, including those paid with credits. */
  readonly usedToday: number;
  /** Whole credits on the balance. */
  readonly credits: number;
}

/*
 * Credits are whole, so they are spent in blocks: the credits charged today always equal
 * ceil(units used beyond the daily allowance / 100). A call that crosses into a new block of 100
 * spends one credit; the next calls use the rest of that block for free. Whatever remains of the
 * last block lapses at the daily reset. Because the rule depends only on `usedToday`, reserve,
 * settle and release all compute from the current row and concurrent calls stay consistent.
 */
const overflow = (b: UsageBalance, used: number): number => Math.max(0, used - b.dailyUnits);
const creditBlocks = (b: UsageBalance, used: number): number => Math.ceil(overflow(b, used) / UNITS_PER_CREDIT);

/** Units still available today: the rest of the daily units, of the open credit block, and the credits. */
export function availableUnits(b: UsageBalance): number {
  const dailyLeft = Math.max(0, b.dailyUnits - b.usedToday);
  const blockLeft = creditBlocks(b, b.usedToday) * UNITS_PER_CREDIT - overflow(b, b.usedToday);
  return dailyLeft + blockLeft + b.credits * UNITS_PER_CREDIT;
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
      readonly creditsAfter: number;
    }
  | { readonly ok: false; readonly code: 'USAGE_EXHAUSTED'; readonly units: number; readonly availableUnits: number };

/**
 * How a reservation of `units` is paid: first from the day's units, then from credits. Refuses
 * (ok: false, 429 `USAGE_EXHAUSTED`) when the credits cannot cover the new blocks. The caller
 * writes `usedTodayAfter` and `creditsAfter` with one conditional update guarded on the values
 * it read, so a concurrent reservation makes it re-plan rather than overspend.
 */
export function planReservation(b: UsageBalance, units: number): ReservationPlan {
  if (!Number.isInteger(units) || units < 1) throw new RangeError(`units must be a positive integer, got ${units}`);
  const usedAfter = b.usedToday + units;
  const creditsSpent = creditBlocks(b, usedAfter) - creditBlocks(b, b.usedToday);
  if (creditsSpent > b.credits) return { ok: false, code: 'USAGE_EXHAUSTED', units, availableUnits: availableUnits(b) };
  const fromDailyUnits = Math.min(units, Math.max(0, b.dailyUnits - b.usedToday));
  return {
    ok: true,
    units,
    fromDailyUnits,
    fromCreditUnits: units - fromDailyUnits,
    creditsSpent,
    usedTodayAfter: usedAfter,
    creditsAfter: b.credits - creditsSpent,
  };
}

export interface SettlementPlan {
  readonly usedTodayAfter: number;
  /** Credits to add (refund, > 0) or deduct (< 0). */
  readonly creditsDelta: number;
  /** Credits the call should have cost beyond the balance: the call already happened, so they are waived. */
  readonly waivedCredits: number;
}

/**
 * Settles a reservation of `reservedUnits` to the real `actualUnits` (0 releases it after a failed
 * call), against the current balance of the same UTC day. Never refuses: a call that used more
 * than reserved is charged what the balance holds and the rest is waived. A reservation from an
 * earlier day must not be settled against today's counter (its units already reset).
 */
export function planSettlement(b: UsageBalance, reservedUnits: number, actualUnits: number): SettlementPlan {
  requireAmount(reservedUnits, 'reservedUnits');
  requireAmount(actualUnits, 'actualUnits');
  const usedAfter = Math.max(0, b.usedToday + actualUnits - reservedUnits);
  // `0 - x` rather than `-x`: never hand the caller a negative zero.
  const blockDelta = creditBlocks(b, usedAfter) - creditBlocks(b, b.usedToday);
  if (blockDelta <= 0) return { usedTodayAfter: usedAfter, creditsDelta: 0 - blockDelta, waivedCredits: 0 };
  const charged = Math.min(blockDelta, b.credits);
  return { usedTodayAfter: usedAfter, creditsDelta: 0 - charged, waivedCredits: blockDelta - charged };
}
