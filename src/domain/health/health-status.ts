/** The spec's health value: both CPU and memory at or below the first threshold is healthy. */
export type HealthValue = 'healthy' | 'degraded' | 'unhealthy';

export interface HealthThresholds {
  /** Above this percent: degraded (spec: 70). */
  degradedAbove: number;
  /** Above this percent: unhealthy (spec: 85). */
  unhealthyAbove: number;
}

export function healthOf(cpuPercent: number, memoryPercent: number, t: HealthThresholds): HealthValue {
  const worst = Math.max(cpuPercent, memoryPercent);
  if (worst > t.unhealthyAbove) return 'unhealthy';
  if (worst > t.degradedAbove) return 'degraded';
  return 'healthy';
}
