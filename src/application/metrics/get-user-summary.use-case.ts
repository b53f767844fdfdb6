import { inject, injectable } from 'tsyringe';
import { growthText, moneyText, percentOf, percentText } from '../../domain/metrics/metric-figures.js';
import type { Actor } from '../auth/actor.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { MetricsUserScope } from '../ports/scopes/metrics-scope.port.js';
import { readAsMetricsSubject } from './metrics-access.js';

export interface UserSummary {
  revenue: { month: string; total: string; change: string };
  bookings: { completed: number; pending: number; conversion: string };
  fans: { total: number; active: number; growth: string; segmentation: { superfans: number; casual: number; new: number } };
  streams: { monthlyListeners: number; monthlyStreams: number; growth: string };
  skills: { active: number; total: number; growth: string };
}

/** A user's business summary from what the skills recorded: revenue, bookings, fans, skills (0 or "0%" where nothing was recorded). */
@injectable()
export class GetUserSummary {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<MetricsUserScope, 'metrics' | 'users'>,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { userId: string }): Promise<UserSummary> {
    const f = await readAsMetricsSubject(this.uow, actor, input.userId, (s) => s.metrics.summary(this.clock.now()));
    const bookings = f.bookings.released + f.bookings.held;
    return {
      revenue: { month: moneyText(f.revenueCents.thisMonth), total: moneyText(f.revenueCents.total), change: growthText(f.revenueCents.thisMonth, f.revenueCents.previousMonth) },
      bookings: { completed: f.bookings.released, pending: f.bookings.held, conversion: percentText(percentOf(f.bookings.released, bookings)) },
      fans: {
        total: f.fans.total,
        active: f.fans.active,
        growth: growthText(f.fans.newThisMonth, f.fans.newPreviousMonth),
        segmentation: { superfans: f.fans.superfans, casual: f.fans.casual, new: f.fans.newThisMonth },
      },
      // no skill stores listening or streaming figures per month: zero, never invented
      streams: { monthlyListeners: 0, monthlyStreams: 0, growth: '0%' },
      skills: { active: f.skills.enabled, total: f.skills.total, growth: growthText(f.skills.installedThisMonth, f.skills.installedPreviousMonth) },
    };
  }
}
