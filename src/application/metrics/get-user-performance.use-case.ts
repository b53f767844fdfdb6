import { inject, injectable } from 'tsyringe';
import { percentOf, round2 } from '../../domain/metrics/metric-figures.js';
import type { Actor } from '../auth/actor.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { MetricsUserScope } from '../ports/scopes/metrics-scope.port.js';
import { readAsMetricsSubject } from './metrics-access.js';

export interface UserPerformance {
  cpu: number;
  memory: number;
  errorRate: number;
  responseTime: number;
}

const DAY_MS = 86_400_000;

/** A user's latest sample's cpu and memory; error rate and mean answer time over the last 24 hours (0 where nothing was recorded). */
@injectable()
export class GetUserPerformance {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<MetricsUserScope, 'metrics' | 'users'>,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { userId: string }): Promise<UserPerformance> {
    const since = new Date(this.clock.now().getTime() - DAY_MS);
    const p = await readAsMetricsSubject(this.uow, actor, input.userId, (s) => s.metrics.performance(since));
    return {
      cpu: round2(p.latestSample?.cpuPercent ?? 0),
      memory: round2(p.latestSample?.memoryPercent ?? 0),
      errorRate: percentOf(p.failed, p.answered + p.failed),
      responseTime: round2(p.averageAnswerMs ?? 0),
    };
  }
}
