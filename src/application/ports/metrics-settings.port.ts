import type { InjectionToken } from 'tsyringe';

export interface MetricsSettings {
  /** `storage.total` in MB: the configured quota of the database volume. */
  storageTotalMb: number;
  /** How long GET /api/metrics reuses its figures (a public endpoint must not cost a scan per call). */
  cacheMs: number;
  /** How long the sampling job waits for each runtime's stats. */
  sampleTimeoutMs: number;
  /** Samples (and ticks, request timings) older than this are pruned. */
  retentionDays: number;
}

export const METRICS_SETTINGS: InjectionToken<MetricsSettings> = Symbol('MetricsSettings');
