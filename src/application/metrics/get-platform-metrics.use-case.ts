import { inject, injectable } from 'tsyringe';
import { percentOf, percentText, round2 } from '../../domain/metrics/metric-figures.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { MetricsSystemScope } from '../ports/scopes/metrics-scope.port.js';
import { METRICS_SETTINGS, type MetricsSettings } from '../ports/metrics-settings.port.js';

export interface PlatformMetrics {
  agents: { total: number; active: number; inactive: number; failed: number };
  messages: { today: number; thisWeek: number; thisMonth: number };
  deployments: { total: number; successful: number; failed: number };
  uptime: { platformUptime: number; averageAgentUptime: number };
  performance: { averageResponseTime: number; successRate: string; errorRate: string };
  storage: { used: number; total: number; percentUsed: number };
}

const MB = 1024 * 1024;

/**
 * GET /api/metrics: platform-wide totals only (it is public: no figure names or isolates a user).
 * Active agents are running ones, inactive are stopped or still provisioning, failed are in error.
 * Figures are reused for `cacheMs`.
 */
@injectable()
export class GetPlatformMetrics {
  private cached: { at: number; value: PlatformMetrics } | null = null;

  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<MetricsSystemScope, 'metrics'>,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(METRICS_SETTINGS) private readonly settings: MetricsSettings,
  ) {}

  async execute(): Promise<PlatformMetrics> {
    const now = this.clock.now();
    if (this.cached && now.getTime() - this.cached.at < this.settings.cacheMs) return this.cached.value;
    const f = await this.uow.asSystem((s) => s.metrics.platform(now));
    const { count, errors, totalMs } = f.requests;
    const used = round2(f.databaseBytes / MB);
    const value: PlatformMetrics = {
      agents: { total: f.agents.total, active: f.agents.running, inactive: f.agents.stopped + f.agents.provisioning, failed: f.agents.error },
      messages: f.messages,
      deployments: { total: f.deployments.provisioned + f.deployments.failed, successful: f.deployments.provisioned, failed: f.deployments.failed },
      uptime: { platformUptime: round2(f.platformUptimePercent ?? 0), averageAgentUptime: round2(f.averageAgentUptimePercent ?? 0) },
      performance: {
        averageResponseTime: count > 0 ? round2(totalMs / count) : 0,
        successRate: percentText(percentOf(count - errors, count)),
        errorRate: percentText(percentOf(errors, count)),
      },
      storage: { used, total: this.settings.storageTotalMb, percentUsed: percentOf(used, this.settings.storageTotalMb) },
    };
    this.cached = { at: now.getTime(), value };
    return value;
  }
}
