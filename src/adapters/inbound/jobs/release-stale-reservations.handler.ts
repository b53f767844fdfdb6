import type { ReleaseStaleReservations } from '../../../application/billing/release-stale-reservations.use-case.js';
import type { JobHandler } from '../../../application/ports/job-queue.port.js';

/** The job kind, scheduled every minute on the maintenance queue. */
export const RELEASE_STALE_RESERVATIONS = 'usage.release-stale-reservations';
export const RELEASE_STALE_RESERVATIONS_CRON = '* * * * *';

/** Runs the sweep; a failure throws, and the next minute's run (or pg-boss's retry) tries again. */
export const releaseStaleReservationsHandler =
  (useCase: Pick<ReleaseStaleReservations, 'execute'>): JobHandler =>
  async () => {
    await useCase.execute();
  };
