import { inject, injectable } from 'tsyringe';
import { growthText, moneyText, percentOf, percentText, round2 } from '../../domain/metrics/metric-figures.js';
import { bucketPlan, type MetricsRange } from '../../domain/metrics/metrics-range.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import type { UserScope } from '../ports/unit-of-work.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import { metricsSubject } from './metrics-access.js';

export interface UserHistory {
  userId: string;
  timeRange: MetricsRange;
  metrics: { timestamp: string; cpu: number; memory: number; messages: number; errors: number }[];
  averages: { cpu: number; memory: number; messages: number; errors: number };
}

export interface UserPerformance {
  cpu: number;
  memory: number;
  errorRate: number;
  responseTime: number;
}

export interface UserSummary {
  revenue: { month: string; total: string; change: string };
  bookings: { completed: number; pending: number; conversion: string };
  fans: { total: number; active: number; growth: string; segmentation: { superfans: number; casual: number; new: number } };
  streams: { monthlyListeners: number; monthlyStreams: number; growth: string };
  skills: { active: number; total: number; growth: string };
}

const DAY_MS = 86_400_000;

/**
 * The backend's per-user metrics (J): the user's own, or any user's for an admin. Every figure is
 * read from recorded rows; where nothing was recorded it is 0 (or "0%").
 */
@injectable()
export class GetUserMetrics {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<'metrics' | 'users'>,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Buckets of cpu, memory (sample averages), messages and failed answers; averages over the range. */
  async history(actor: Actor, userId: string, range: MetricsRange): Promise<UserHistory> {
    const plan = bucketPlan(range, this.clock.now());
    const h = await this.read(actor, userId, (s) => s.metrics.history(plan));
    const total = (k: 'messages' | 'errors') => h.buckets.reduce((n, b) => n + b[k], 0);
    return {
      userId,
      timeRange: range,
      metrics: h.buckets.map((b) => ({ timestamp: b.timestamp.toISOString(), cpu: round2(b.cpu), memory: round2(b.memory), messages: b.messages, errors: b.errors })),
      averages: { cpu: round2(h.averages.cpu), memory: round2(h.averages.memory), messages: round2(total('messages') / plan.count), errors: round2(total('errors') / plan.count) },
    };
  }

  /** Latest sample's cpu and memory; error rate and mean answer time over the last 24 hours. */
  async performance(actor: Actor, userId: string): Promise<UserPerformance> {
    const since = new Date(this.clock.now().getTime() - DAY_MS);
    const p = await this.read(actor, userId, (s) => s.metrics.performance(since));
    return {
      cpu: round2(p.latestSample?.cpuPercent ?? 0),
      memory: round2(p.latestSample?.memoryPercent ?? 0),
      errorRate: percentOf(p.failed, p.answered + p.failed),
      responseTime: round2(p.averageAnswerMs ?? 0),
    };
  }

  async summary(actor: Actor, userId: string): Promise<UserSummary> {
    const f = await this.read(actor, userId, (s) => s.metrics.summary(this.clock.now()));
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

  /** As the subject user (RLS); an admin asking for a user that does not exist gets 404. */
  private async read<T>(actor: Actor, userId: string, work: (s: Pick<UserScope, 'metrics' | 'users' | 'userId'>) => Promise<T>): Promise<T> {
    const subject = metricsSubject(actor, userId);
    return this.uow.asUser(subject, async (s) => {
      if (subject !== actor.userId && !(await s.users.me())) throw new NotFoundError('Metrics');
      return work(s);
    });
  }
}
