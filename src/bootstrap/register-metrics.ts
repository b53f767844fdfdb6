import type { DependencyContainer } from 'tsyringe';
import { PrometheusMetrics } from '../adapters/inbound/http/plugins/prometheus-metrics.js';
import { RouteTimings } from '../adapters/inbound/http/plugins/route-timings.js';
import { LocalInstances } from '../application/instances/local-instances.js';
import { GetPlatformMetrics } from '../application/metrics/get-platform-metrics.use-case.js';
import { METRICS_SETTINGS } from '../application/ports/metrics-settings.port.js';
import { SampleInstances } from '../application/metrics/sample-instances.use-case.js';
import type { Config } from './config.js';
import type { Infrastructure } from './infrastructure.js';

/** Samples are kept a little over the longest historical range (30d). */
const RETENTION_DAYS = 31;
/** A runtime's stats come from the worker owning it; a slow one is skipped for that minute. */
const SAMPLE_TIMEOUT_MS = 5_000;

export function registerMetrics(c: DependencyContainer, config: Config, infra: Pick<Infrastructure, 'pools' | 'queue'>): void {
  c.register(METRICS_SETTINGS, {
    useValue: {
      storageTotalMb: config.METRICS_STORAGE_TOTAL_MB,
      cacheMs: config.METRICS_CACHE_MS,
      sampleTimeoutMs: Math.min(SAMPLE_TIMEOUT_MS, config.INSTANCE_COMMAND_TIMEOUT_MS),
      retentionDays: RETENTION_DAYS,
    },
  });
  c.registerSingleton(GetPlatformMetrics);
  c.registerSingleton(SampleInstances);
  const prometheus = new PrometheusMetrics({
    timings: c.resolve(RouteTimings),
    pools: { owner: infra.pools.owner, user: infra.pools.user, system: infra.pools.system },
    queueSizes: () => infra.queue.boss.getQueues(),
    runningRuntimes: () => c.resolve(LocalInstances).all().length,
    scrapeToken: config.METRICS_TOKEN,
    // a process that runs agent hosts here (process runtime, worker or both roles) shares loopback with them
    loopbackScrapes: config.SERVICE_ROLE === 'api' || config.AGENT_RUNTIME !== 'process',
  });
  c.register(PrometheusMetrics, { useValue: prometheus });
}
