import type { InjectionToken } from 'tsyringe';

export interface ReservationLeaseSettings {
  /** How often this process renews the leases of the reservations its calls hold: well inside RESERVATION_STALE_MS. */
  readonly renewEveryMs: number;
  /** The first wait before a failed settlement or release is tried again; it doubles up to `maxRetryMs`. */
  readonly retryMs: number;
  readonly maxRetryMs: number;
  /** How long failed attempts go on: then the lease lapses and the stale sweep releases the reservation. */
  readonly giveUpAfterMs: number;
}

export const RESERVATION_LEASE_SETTINGS: InjectionToken<ReservationLeaseSettings> = Symbol('ReservationLeaseSettings');
