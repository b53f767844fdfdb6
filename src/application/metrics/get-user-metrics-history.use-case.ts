import { inject, injectable } from 'tsyringe';
import { round2 } from '../../domain/metrics/metric-figures.js';
import { bucketPlan, type MetricsRange } from '../../domain/metrics/metrics-range.js';
import type { Actor } from '../auth/actor.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { MetricsUserScope } from '../ports/scopes/metrics-scope.port.js';
import { readAsMetricsSubject } from './metrics-access.js';

export interface UserHistory {
  userId: string;
  timeRange: MetricsRange;
  metrics: { timestamp: string; cpu: number; memory: number; messages: number; errors: number }[];
  averages: { cpu: number; memory: number; messages: number; errors: number };
}

/**
 * A user's metrics over a range (the user's own, or any user's for an admin): buckets of cpu,
 * memory (sample averages), messages and failed answers; averages over the range. Every figure is
 * read from recorded rows; where nothing was recorded it is 0.
 */
@injectable()
export class GetUserMetricsHistory {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<MetricsUserScope, 'metrics' | 'users'>,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { userId: string; range: MetricsRange }): Promise<UserHistory> {
    const plan = bucketPlan(input.range, this.clock.now());
    const h = await readAsMetricsSubject(this.uow, actor, input.userId, (s) => s.metrics.history(plan));
    const total = (k: 'messages' | 'errors') => h.buckets.reduce((n, b) => n + b[k], 0);
    return {
      userId: input.userId,
      timeRange: input.range,
      metrics: h.buckets.map((b) => ({ timestamp: b.timestamp.toISOString(), cpu: round2(b.cpu), memory: round2(b.memory), messages: b.messages, errors: b.errors })),
      averages: { cpu: round2(h.averages.cpu), memory: round2(h.averages.memory), messages: round2(total('messages') / plan.count), errors: round2(total('errors') / plan.count) },
    };
  }
}
