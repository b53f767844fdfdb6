import { inject, injectable } from 'tsyringe';
import { healthOf, type HealthThresholds, type HealthValue } from '../../domain/health/health-status.js';
import { SYSTEM_STATS, type SystemStats } from '../ports/system-stats.port.js';
import { HEALTH_THRESHOLDS } from '../ports/health-thresholds.port.js';

export interface HealthReport {
  health: HealthValue;
  cpu: { usage: number; cores: number };
  /** The spec's shape: `usage` is the percent the thresholds judge. */
  memory: { usage: number; total: number; used: number; free: number };
  uptime: number;
}

@injectable()
export class GetHealth {
  constructor(
    @inject(SYSTEM_STATS) private readonly stats: SystemStats,
    @inject(HEALTH_THRESHOLDS) private readonly thresholds: HealthThresholds,
  ) {}

  execute(): HealthReport {
    const cpu = this.stats.cpuPercent();
    const memory = this.stats.memory();
    return {
      health: healthOf(cpu, memory.percent, this.thresholds),
      cpu: { usage: cpu, cores: this.stats.cores() },
      memory: { usage: memory.percent, total: memory.total, used: memory.used, free: memory.free },
      uptime: this.stats.uptimeSeconds(),
    };
  }
}
