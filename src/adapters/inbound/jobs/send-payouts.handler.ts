import { z } from 'zod';
import type { JobHandler } from '../../../application/ports/job-queue.port.js';
import { SEND_PAYOUTS_JOB, type SendPayouts } from '../../../application/wallets/send-payouts.use-case.js';
import type { SweepUnfinishedPayouts } from '../../../application/wallets/sweep-unfinished-payouts.use-case.js';
import type { UserId } from '../../../domain/shared/ids.js';
import { DomainError } from '../../../domain/shared/domain-error.js';

export { SEND_PAYOUTS_JOB };

const jobData = z.object({ userId: z.string().uuid(), payoutIds: z.array(z.string().uuid()).min(1).max(50) });

class SendPayoutsJobInvalidError extends DomainError {
  constructor() {
    super('SEND_PAYOUTS_JOB_INVALID', 'The payout job carries unreadable data');
  }
}

/**
 * The `tasks` queue's payout job: sends or checks the payouts a request recorded. While one is
 * not final (not broadcast yet, or broadcast and not mined) it throws a plain error, so pg-boss
 * retries it with backoff; each retry checks recorded hashes and never signs a payout twice.
 */
export const sendPayoutsHandler =
  (useCase: Pick<SendPayouts, 'run'>): JobHandler =>
  async (data) => {
    const parsed = jobData.safeParse(data);
    if (!parsed.success) throw new SendPayoutsJobInvalidError();
    const result = await useCase.run(parsed.data.userId as UserId, parsed.data.payoutIds);
    if (result.unfinished) throw new Error(`payouts not final yet${result.stoppedBy ? `: ${result.stoppedBy.message}` : ''}`);
  };

/** The sweep of payouts whose own job gave up, every five minutes on the maintenance queue. */
export const SWEEP_UNFINISHED_PAYOUTS = 'wallet.sweep-unfinished-payouts';
export const SWEEP_UNFINISHED_PAYOUTS_CRON = '*/5 * * * *';

export const sweepUnfinishedPayoutsHandler =
  (useCase: Pick<SweepUnfinishedPayouts, 'execute'>): JobHandler =>
  async () => {
    await useCase.execute();
  };
