import type pg from 'pg';
import type { DependencyContainer } from 'tsyringe';
import { SEND_PAYOUTS_JOB, sendPayoutsHandler } from '../../src/adapters/inbound/jobs/send-payouts.handler.js';
import { SendPayouts } from '../../src/application/wallets/send-payouts.use-case.js';

/**
 * What a worker does with the payout jobs queued so far, now instead of after their delay: each
 * runs through the real job handler (twice at once when `twice`, as a retry racing a slow first
 * run would). Returns how many jobs were queued. A job that throws is one pg-boss would retry.
 */
export async function runQueuedPayoutJobs(owner: pg.Pool, container: DependencyContainer, opts: { twice?: boolean } = {}): Promise<number> {
  const { rows } = await owner.query<{ data: Record<string, unknown> }>(`select data from pgboss.job where data->>'kind' = $1`, [SEND_PAYOUTS_JOB]);
  const handler = sendPayoutsHandler(container.resolve(SendPayouts));
  for (const { data } of rows) {
    const { kind: _kind, ...payload } = data;
    const runs = opts.twice ? [handler(payload), handler(payload)] : [handler(payload)];
    await Promise.allSettled(runs);
  }
  return rows.length;
}
