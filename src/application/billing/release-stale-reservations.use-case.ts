import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { USAGE_METER, type UsageMeter } from '../ports/usage-meter.port.js';
import { type ReservationSweepSettings, RESERVATION_SWEEP_SETTINGS } from '../ports/reservation-sweep-settings.port.js';

/**
 * Releases reservations whose lease lapsed: the process running their call renews it while the
 * call lives (UsageReservations), so one not renewed within the bound belongs to a process that
 * crashed, or that gave up settling it. A call still running, however long, is never released
 * under it. Released, not settled to the estimate: nobody knows how much of the call
 * happened, and the failure was ours, so the doubt goes to the payer. Run every minute by a
 * scheduled job in worker processes; any number of runs may overlap, since a release closes an
 * open reservation at most once (a run that loses the race to another, or to a late settlement,
 * changes nothing).
 */
@injectable()
export class ReleaseStaleReservations {
  constructor(
    @inject(USAGE_METER) private readonly meter: UsageMeter,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(RESERVATION_SWEEP_SETTINGS) private readonly settings: ReservationSweepSettings,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  /** Resolves with how many reservations this run released. */
  async execute(): Promise<{ released: number }> {
    const cutoff = new Date(this.clock.now().getTime() - this.settings.staleAfterMs);
    let released = 0;
    for (;;) {
      const stale = await this.meter.openBefore(cutoff, this.settings.batchSize);
      for (const reservation of stale) {
        if (await this.meter.releaseStale(reservation, cutoff)) {
          released += 1;
          this.log.warn({ reservation }, 'stale usage reservation released: its call never settled it');
        }
      }
      if (stale.length < this.settings.batchSize) return { released };
    }
  }
}
