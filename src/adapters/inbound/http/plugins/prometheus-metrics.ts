import { timingSafeEqual, createHash } from 'node:crypto';
import type pg from 'pg';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RouteTimings } from './route-timings.js';
import { HttpEdgeError } from '../http-error.js';

export interface PrometheusSources {
  timings: RouteTimings;
  pools: Record<string, pg.Pool>;
  /** pg-boss's queue sizes (cached by its monitor); a failure leaves the gauge empty for that scrape. */
  queueSizes: () => Promise<{ name: string; queuedCount: number; activeCount: number; deferredCount: number; failedCount: number }[]>;
  /** Agent runtimes this process runs (0 in an api-only process). */
  runningRuntimes: () => number;
  /** METRICS_TOKEN: the bearer token scrapers send; unset → loopback only, when `loopbackScrapes`. */
  scrapeToken: string | undefined;
  /**
   * Whether a loopback caller may scrape without the token: only when no agent host can run on this
   * machine (decision 0393), since a host's program reaches loopback too.
   */
  loopbackScrapes: boolean;
}

/**
 * The operator's Prometheus registry of one process: request durations by route and status,
 * the database pools' connections, the job queues' sizes, the runtimes running here, and Node's
 * default process metrics. Its own registry, so two services in one process (tests) never clash.
 */
export class PrometheusMetrics {
  readonly registry = new Registry();
  readonly scrapeToken: string | undefined;
  readonly loopbackScrapes: boolean;

  constructor(s: PrometheusSources) {
    this.scrapeToken = s.scrapeToken;
    this.loopbackScrapes = s.loopbackScrapes;
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
 * Who may read the Prometheus text: with METRICS_TOKEN, whoever bears it (401 AUTH_REQUIRED
 * otherwise); without it, loopback callers where no agent host shares the machine (403 FORBIDDEN
 * otherwise, saying why).
 * @throws HttpEdgeError
 */
export function assertMayScrape(m: Pick<PrometheusMetrics, 'scrapeToken' | 'loopbackScrapes'>, authorization: string | undefined, ip: string): void {
  if (m.scrapeToken) {
    const sent = authorization?.startsWith('Bearer ') ? authorization.slice(7) : '';
    const digest = (v: string) => createHash('sha256').update(v).digest();
    if (!timingSafeEqual(digest(sent), digest(m.scrapeToken))) throw new HttpEdgeError('AUTH_REQUIRED', 'Not allowed to scrape metrics: send METRICS_TOKEN as a bearer token');
    return;
  }
  if (!m.loopbackScrapes) throw new HttpEdgeError('FORBIDDEN', 'Not allowed to scrape metrics: agent hosts run on this machine, so METRICS_TOKEN is required');
  if (ip !== '127.0.0.1' && ip !== '::1' && ip !== '::ffff:127.0.0.1') throw new HttpEdgeError('FORBIDDEN', 'Not allowed to scrape metrics: loopback callers only without METRICS_TOKEN');
}
