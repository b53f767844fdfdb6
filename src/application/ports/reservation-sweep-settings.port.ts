import type { InjectionToken } from 'tsyringe';

export interface ReservationSweepSettings {
  /** RESERVATION_STALE_MS: a reservation whose lease nobody renewed for this long belongs to a call that will never settle it. */
  readonly staleAfterMs: number;
  /** Reservations read per round; the sweep goes on until a round comes back short. */
  readonly batchSize: number;
}

export const RESERVATION_SWEEP_SETTINGS: InjectionToken<ReservationSweepSettings> = Symbol('ReservationSweepSettings');
