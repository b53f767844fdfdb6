import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';

/** Units held for one paid call, until it is settled or released. */
export interface UsageReservation {
  id: string;
  payer: UserId;
  units: number;
  /** The UTC day the units were taken from (usage resets at 00:00 UTC). */
  day: string;
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
   * (USAGE_EXHAUSTED) and changes nothing when it cannot cover them.
   */
  reserve(payer: UserId, units: number): Promise<UsageReservation>;
  /** Replaces the reservation with the real amount; never refuses (an overrun beyond the balance is waived). */
  settle(reservation: UsageReservation, actualUnits: number): Promise<void>;
  /** Gives the reserved units back: the call failed. */
  release(reservation: UsageReservation): Promise<void>;
  /** Today's figures for the payer. */
  usage(payer: UserId): Promise<UsageSnapshot>;
}
export const USAGE_METER: InjectionToken<UsageMeter> = Symbol('UsageMeter');
