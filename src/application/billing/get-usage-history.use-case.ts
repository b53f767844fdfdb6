import { inject, injectable } from 'tsyringe';
import { usageDay } from '../../domain/billing/units.js';
import type { Actor } from '../auth/actor.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import type { DailyUsage } from '../ports/metrics-store.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { BillingUserScope } from '../ports/scopes/billing-scope.port.js';
import { USAGE_METER, type UsageMeter } from '../ports/usage-meter.port.js';

const DAY_MS = 86_400_000;

export interface UsageHistory {
  /** Today's daily allowance of the caller's plan (the line the chart draws the days against). */
  dailyUnits: number;
  /** Oldest first, today last, every day present. */
  days: DailyUsage[];
}

/** The caller's metered units per UTC day over the last `days` days (the console's usage chart). */
@injectable()
export class GetUsageHistory {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<BillingUserScope, 'metrics'>,
    @inject(USAGE_METER) private readonly meter: UsageMeter,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, days: number): Promise<UsageHistory> {
    const from = usageDay(new Date(this.clock.now().getTime() - (days - 1) * DAY_MS));
    const history = await this.uow.asUser(actor.userId, (s) => s.metrics.dailyUsage(from, days));
    const { dailyUnits } = await this.meter.usage(actor.userId);
    return { dailyUnits, days: history };
  }
}
