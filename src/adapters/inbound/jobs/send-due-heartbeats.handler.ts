import type { SendDueHeartbeats } from '../../../application/heartbeat/send-due-heartbeats.use-case.js';
import type { JobHandler } from '../../../application/ports/job-queue.port.js';

/** The job kind, scheduled every minute on the maintenance queue. */
export const SEND_DUE_HEARTBEATS = 'heartbeat.send-due';
export const SEND_DUE_HEARTBEATS_CRON = '* * * * *';

/** Runs the heartbeats that are due; what it leaves (a failure, a batch cut) is still due next minute. */
export const sendDueHeartbeatsHandler =
  (useCase: Pick<SendDueHeartbeats, 'execute'>): JobHandler =>
  async () => {
    await useCase.execute();
  };
