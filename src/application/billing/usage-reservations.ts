import { inject, injectable } from 'tsyringe';
import { UsageExhaustedError } from '../../domain/billing/billing.errors.js';
import type { UserId } from '../../domain/shared/ids.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { USAGE_METER, type ReservedWithChatAccess, type ReservedWithRuntimeCaller, type UsageMeter, type UsageReservation } from '../ports/usage-meter.port.js';
import { type ReservationLeaseSettings, RESERVATION_LEASE_SETTINGS } from '../ports/reservation-lease-settings.port.js';

/** Derived from RESERVATION_STALE_MS: four renewals per bound, retries every few seconds, given up at the bound. */
export function leaseSettingsFor(staleAfterMs: number): ReservationLeaseSettings {
  return {
    renewEveryMs: Math.floor(staleAfterMs / 4),
    retryMs: Math.min(1_000, Math.floor(staleAfterMs / 20)),
    maxRetryMs: Math.min(5_000, Math.floor(staleAfterMs / 8)),
    giveUpAfterMs: staleAfterMs,
  };
}

/**
 * The life of every usage reservation this process takes (CONTRACT.md section 6), from reserve to
 * exactly one settlement or release, shared by chat, streams, audio, the gateway and agent runtimes.
 *
 * - **A reservation is its call's while the call lives.** Each one held here has its lease renewed
 *   every `renewEveryMs` (one statement for all of them), so the stale sweep, which releases only
 *   reservations not renewed within RESERVATION_STALE_MS, never refunds the units of a call still
 *   running, however long a client leaves a stream unread. A process that dies stops renewing, and
 *   the sweep then releases what it held.
 * - **A settlement is never lost to a database fault.** A settle or release that fails (an
 *   outage, a connection cut) is tried again, backing off from `retryMs` to `maxRetryMs`, until
 *   the database answers; the lease is still renewed meanwhile. Closing is one conditional UPDATE,
 *   so a retry of a statement that did commit changes nothing: each call is charged exactly once.
 *   Attempts stop after `giveUpAfterMs` (or at shutdown, after one immediate last try): the lease
 *   then lapses and the sweep releases the units, the doubt going to the payer.
 *
 * `settle` and `release` resolve after their first attempt and never throw; retries go on in the
 * background and `drain()` waits for them.
 */
@injectable()
export class UsageReservations {
  private readonly live = new Map<string, UsageReservation>();
  private readonly pending = new Set<Promise<void>>();
  private readonly wakers = new Set<() => void>();
  private renewTimer: NodeJS.Timeout | undefined;
  private draining = false;

  constructor(
    @inject(USAGE_METER) private readonly meter: UsageMeter,
    @inject(RESERVATION_LEASE_SETTINGS) private readonly settings: ReservationLeaseSettings,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  /** Takes the units (UsageExhaustedError when they are not there, the payer's or `keyId`'s) and holds the reservation's lease until it is closed. */
  async reserve(payer: UserId, units: number, keyId?: string): Promise<UsageReservation> {
    const reservation = await this.meter.reserve(payer, units, keyId);
    this.hold(reservation);
    return reservation;
  }

  /** `reserve` and the payer's chat access in one statement (UsageMeter.reserveWithChatAccess): the refusal is returned, the lease held when taken. */
  async reserveWithChatAccess(payer: UserId, units: number, keyId?: string): Promise<ReservedWithChatAccess> {
    const r = await this.meter.reserveWithChatAccess(payer, units, keyId);
    if (!(r.taken instanceof UsageExhaustedError)) this.hold(r.taken);
    return r;
  }

  /** `reserve` and the runtime caller's check in one statement (UsageMeter.reserveWithRuntimeCaller): the refusal is returned, the lease held when taken. */
  async reserveWithRuntimeCaller(payer: UserId, units: number, tokenHash: Buffer, agentId: string): Promise<ReservedWithRuntimeCaller> {
    const r = await this.meter.reserveWithRuntimeCaller(payer, units, tokenHash, agentId);
    if (!(r.taken instanceof UsageExhaustedError)) this.hold(r.taken);
    return r;
  }

  /** Charges the real amount. */
  settle(reservation: UsageReservation, actualUnits: number): Promise<void> {
    return this.close(reservation, 'settle', () => this.meter.settle(reservation, actualUnits));
  }

  /**
   * Charges the real amount like `settle`, but resolves as soon as the settling statement has been
   * handed to the database (or its first attempt failed), not when it commits: a caller awaits this
   * before its answer leaves, so the settlement is already on its way when the client has the answer,
   * and neither a crash of this process nor one of the database afterwards makes the call free (the
   * database commits what it received; a retry here, or the lost-reservation charge, covers its own
   * crash). The commit, and any retry, go on in the background.
   */
  dispatchSettle(reservation: UsageReservation, actualUnits: number): Promise<void> {
    let handedOver!: () => void;
    const dispatched = new Promise<void>((resolve) => (handedOver = resolve));
    const attempted = this.close(reservation, 'settle', () => this.meter.settle(reservation, actualUnits, handedOver));
    return Promise.race([dispatched, attempted]);
  }

  /** Gives the units back: the call failed or produced nothing. */
  release(reservation: UsageReservation): Promise<void> {
    return this.close(reservation, 'release', () => this.meter.release(reservation));
  }

  /** Reservations whose calls are running (or whose closing is being retried) in this process. */
  get held(): number {
    return this.live.size;
  }

  /** Resolves when every settlement and release started so far has finished; one waiting for a retry is tried at once, for the last time. */
  async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.size > 0) {
        for (const wake of this.wakers) wake();
        await Promise.all([...this.pending]);
      }
    } finally {
      this.draining = false;
    }
  }

  private close(reservation: UsageReservation, what: string, op: () => Promise<boolean>): Promise<void> {
    let firstAttempt!: () => void;
    const attempted = new Promise<void>((resolve) => (firstAttempt = resolve));
    const done: Promise<void> = this.attempts(reservation, what, op, firstAttempt).finally(() => {
      this.pending.delete(done);
      this.drop(reservation);
      firstAttempt();
    });
    this.pending.add(done);
    return attempted;
  }

  private async attempts(reservation: UsageReservation, what: string, op: () => Promise<boolean>, firstAttempt: () => void): Promise<void> {
    let waited = 0;
    let wait = this.settings.retryMs;
    for (let attempt = 1; ; attempt++) {
      try {
        const closed = await op();
        // closed already: by the stale-reservation sweep (its lease lapsed), never by this process twice
        if (!closed) this.log.warn({ reservation }, `usage ${what}: the reservation was already closed; nothing changed`);
        if (attempt > 1) this.log.info({ reservation, attempt }, `usage ${what} went through on a retry`);
        return;
      } catch (err) {
        const last = this.draining || waited >= this.settings.giveUpAfterMs;
        if (last) {
          this.log.error({ err, reservation, attempt }, `usage ${what} failed; given up, the stale-reservation sweep will release it`);
          return;
        }
        if (attempt === 1) this.log.warn({ err, reservation }, `usage ${what} failed; retrying until the database answers`);
        firstAttempt();
        await this.sleep(wait);
        waited += wait;
        wait = Math.min(wait * 2, this.settings.maxRetryMs);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }

  private hold(reservation: UsageReservation): void {
    this.live.set(reservation.id, reservation);
    if (this.renewTimer) return;
    this.renewTimer = setInterval(() => void this.renewAll(), this.settings.renewEveryMs);
    this.renewTimer.unref(); // a lease never keeps the process up
  }

  private drop(reservation: UsageReservation): void {
    this.live.delete(reservation.id);
    if (this.live.size === 0 && this.renewTimer) {
      clearInterval(this.renewTimer);
      this.renewTimer = undefined;
    }
  }

  private async renewAll(): Promise<void> {
    if (this.live.size === 0) return;
    try {
      await this.meter.renew([...this.live.keys()]);
    } catch (err) {
      // the next tick tries again; a lease lapses only after RESERVATION_STALE_MS without one
      this.log.warn({ err, held: this.live.size }, 'usage reservation leases could not be renewed');
    }
  }
}
