import { inject, injectable, type InjectionToken } from 'tsyringe';
import { healthOf, type HealthThresholds, type HealthValue } from '../../domain/health/health-status.js';
import { SYSTEM_STATS, type MemoryStats, type SystemStats } from '../ports/system-stats.port.js';

export const HEALTH_THRESHOLDS: InjectionToken<HealthThresholds> = Symbol('HealthThresholds');

export interface HealthReport {
  health: HealthValue;
  cpu: { usage: number; cores: number };
  memory: MemoryStats;
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
      memory,
      uptime: this.stats.uptimeSeconds(),
    };
  }
}
