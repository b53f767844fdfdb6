import type { JobHandler } from '../../../application/ports/job-queue.port.js';
import type { RunDueSchedules } from '../../../application/schedules/run-due-schedules.use-case.js';

/** The job kind, scheduled every minute on the maintenance queue: a schedule's cron has no finer tick. */
export const RUN_DUE_SCHEDULES = 'schedules.run-due';
export const RUN_DUE_SCHEDULES_CRON = '* * * * *';

/** Runs the agents' schedules that are due; what a pass leaves (a failure) is still due at the next. */
export const runDueSchedulesHandler =
  (useCase: Pick<RunDueSchedules, 'execute'>): JobHandler =>
  async () => {
    await useCase.execute();
  };
