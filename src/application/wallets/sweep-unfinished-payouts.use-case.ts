import { inject, injectable } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { WalletsSystemScope } from '../ports/scopes/wallets-scope.port.js';
import { SendPayouts } from './send-payouts.use-case.js';

/** Untouched this long, a payout's own job has given up (its retries take about three minutes). */
export const UNFINISHED_PAYOUT_AGE_MS = 10 * 60_000;
const BATCH = 200;

/**
 * The safety net behind each payout's own job: payouts still pending or submitted long after they
 * were recorded are run again as their owner, through SendPayouts (a submitted one is only checked,
 * never signed twice). A node still down leaves them as they are for the next sweep.
 */
@injectable()
export class SweepUnfinishedPayouts {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<WalletsSystemScope, 'unfinishedPayouts'>,
    @inject(SendPayouts) private readonly payouts: SendPayouts,
    @inject(LOGGER) private readonly log: Logger,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(now = this.clock.now()): Promise<{ users: number; payouts: number }> {
    const found = await this.uow.asSystem((s) => s.unfinishedPayouts.list(new Date(now.getTime() - UNFINISHED_PAYOUT_AGE_MS), BATCH));
    const byUser = new Map<string, string[]>();
    for (const { userId, payoutId } of found) byUser.set(userId, [...(byUser.get(userId) ?? []), payoutId]);
    for (const [userId, ids] of byUser) {
      try {
        await this.payouts.run(userId as UserId, ids);
      } catch (err) {
        this.log.warn({ err, userId }, 'payout sweep: a run failed; the next sweep tries again');
      }
    }
    return { users: byUser.size, payouts: found.length };
  }
}
