import type { InjectionToken } from 'tsyringe';

export interface MemoryStats {
  total: number;
  used: number;
  free: number;
  percent: number;
}

/** The host's load, as the health endpoint reports it. */
export interface SystemStats {
  /** CPU busy percent over the recent past (0-100). */
  cpuPercent(): number;
  cores(): number;
  memory(): MemoryStats;
  uptimeSeconds(): number;
}
export const SYSTEM_STATS: InjectionToken<SystemStats> = Symbol('SystemStats');
