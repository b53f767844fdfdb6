import { timingSafeEqual, createHash } from 'node:crypto';
import type pg from 'pg';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RouteTimings } from './route-timings.js';

export interface PrometheusSources {
  timings: RouteTimings;
  pools: Record<string, pg.Pool>;
  /** pg-boss's queue sizes (cached by its monitor); a failure leaves the gauge empty for that scrape. */
  queueSizes: () => Promise<{ name: string; queuedCount: number; activeCount: number; deferredCount: number; failedCount: number }[]>;
  /** Agent runtimes this process runs (0 in an api-only process). */
  runningRuntimes: () => number;
  /** METRICS_TOKEN: the bearer token scrapers send; unset → loopback only. */
  scrapeToken: string | undefined;
}

/**
 * The operator's Prometheus registry of one process: request durations by route and status,
 * the database pools' connections, the job queues' sizes, the runtimes running here, and Node's
 * default process metrics. Its own registry, so two services in one process (tests) never clash.
 */
export class PrometheusMetrics {
  readonly registry = new Registry();
  readonly scrapeToken: string | undefined;

  constructor(s: PrometheusSources) {
    this.scrapeToken = s.scrapeToken;
    collectDefaultMetrics({ register: this.registry });
    const durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request durations by route pattern and status code',
      labelNames: ['route', 'status'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    s.timings.observe((route, status, ms) => durations.observe({ route, status: String(status) }, ms / 1000));
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by pool and state (total, idle, waiting clients)',
      labelNames: ['pool', 'state'] as const,
      registers: [this.registry],
      collect() {
        for (const [pool, p] of Object.entries(s.pools)) {
          this.set({ pool, state: 'total' }, p.totalCount);
          this.set({ pool, state: 'idle' }, p.idleCount);
          this.set({ pool, state: 'waiting' }, p.waitingCount);
        }
      },
    });
    new Gauge({
      name: 'job_queue_jobs',
      help: 'Jobs per queue and state, as pg-boss last counted them',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        const queues = await s.queueSizes().catch(() => []);
        for (const q of queues) {
          this.set({ queue: q.name, state: 'queued' }, q.queuedCount);
          this.set({ queue: q.name, state: 'active' }, q.activeCount);
          this.set({ queue: q.name, state: 'deferred' }, q.deferredCount);
          this.set({ queue: q.name, state: 'failed' }, q.failedCount);
        }
      },
    });
    new Gauge({
      name: 'agent_runtimes_running',
      help: 'Agent runtimes running in this process',
      registers: [this.registry],
      collect() {
        this.set(s.runningRuntimes());
      },
    });
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * Who may scrape /metrics: with a token configured, a request bearing it (compared in constant
 * time); without one, only loopback callers (the socket's address: trustProxy is off, so a
 * forwarded header cannot claim it).
 */
export function mayScrape(token: string | undefined, authorization: string | undefined, ip: string): boolean {
  if (token) {
    const sent = authorization?.startsWith('Bearer ') ? authorization.slice(7) : '';
    const digest = (v: string) => createHash('sha256').update(v).digest();
    return timingSafeEqual(digest(sent), digest(token));
  }
  return ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';
}
