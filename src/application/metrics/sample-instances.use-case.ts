import { inject, injectable } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import type { RuntimeStats } from '../ports/agent-runtime.port.js';
import { INSTANCE_COMMANDS, type InstanceCommands } from '../ports/instance-commands.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import type { InstanceSample } from '../ports/metrics-store.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { MetricsSystemScope } from '../ports/scopes/metrics-scope.port.js';
import { METRICS_SETTINGS, type MetricsSettings } from '../ports/metrics-settings.port.js';

/** At most this many stats requests in flight at once: each is a command row a worker claims. */
const CONCURRENCY = 8;

/**
 * The every-minute sampling: asks each running instance's runtime for its stats through the
 * instance command path (whichever worker owns it answers), stores one sample per answering
 * instance, marks the minute as one the platform was up, and prunes what is past retention.
 * An instance that does not answer in time has no sample for that minute (never an invented one).
 */
@injectable()
export class SampleInstances {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<MetricsSystemScope, 'metrics'>,
    @inject(INSTANCE_COMMANDS) private readonly commands: InstanceCommands,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(METRICS_SETTINGS) private readonly settings: MetricsSettings,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async execute(): Promise<{ sampled: number; pruned: number }> {
    const now = this.clock.now();
    const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    const running = await this.uow.asSystem((s) => s.metrics.runningInstances());
    const samples: InstanceSample[] = [];
    for (let i = 0; i < running.length; i += CONCURRENCY) {
      const answers = await Promise.all(running.slice(i, i + CONCURRENCY).map((userId) => this.sample(userId)));
      for (const a of answers) if (a) samples.push(a);
    }
    const before = new Date(now.getTime() - this.settings.retentionDays * 86_400_000);
    const pruned = await this.uow.asSystem(async (s) => {
      await s.metrics.recordSamples(samples, minute);
      await s.metrics.tick(minute);
      return s.metrics.prune(before);
    });
    return { sampled: samples.length, pruned };
  }

  private async sample(userId: UserId): Promise<InstanceSample | null> {
    const answer = await this.commands.request(userId, 'stats', this.settings.sampleTimeoutMs).catch((err: unknown) => {
      this.log.warn({ err, userId }, 'instance stats request failed');
      return null;
    });
    if (!answer?.ok || answer.value === null || typeof answer.value !== 'object') return null;
    const stats = answer.value as RuntimeStats;
    return { userId, cpuPercent: Math.max(0, stats.cpuPercent), memoryPercent: Math.max(0, stats.memoryPercent), rssBytes: Math.max(0, stats.rssBytes) };
  }
}
