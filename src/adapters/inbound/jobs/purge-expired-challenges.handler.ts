import type { PurgeExpiredChallenges } from '../../../application/gateway/purge-expired-challenges.use-case.js';
import type { JobHandler } from '../../../application/ports/job-queue.port.js';

/** The job kind, scheduled hourly on the maintenance queue. */
export const PURGE_EXPIRED_CHALLENGES = 'gateway.purge-expired-challenges';
export const PURGE_EXPIRED_CHALLENGES_CRON = '17 * * * *';

export const purgeExpiredChallengesHandler =
  (useCase: Pick<PurgeExpiredChallenges, 'execute'>): JobHandler =>
  async () => {
    await useCase.execute();
  };
