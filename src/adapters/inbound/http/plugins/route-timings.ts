import type { RequestTimingRow } from '../../../../application/ports/metrics-store.port.js';

/**
 * Per-route request timings, kept in memory for the metrics endpoints: count, errors, and a
 * fixed-bucket latency histogram per `METHOD /route/:pattern` (never the raw URL, so ids
 * in paths cannot grow it). Beside them, per-minute aggregates waiting to be flushed to the
 * database in one batch (`drain`): the hot path only adds to a map entry.
 */
const BUCKETS_MS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, Infinity];

export interface RouteStats {
  count: number;
  errors: number;
  totalMs: number;
  buckets: number[];
}

/** Unflushed minutes are bounded: past this many (minute, route, status class) keys new ones are dropped until the next drain. */
const MAX_PENDING = 10_000;

export class RouteTimings {
  private readonly routes = new Map<string, RouteStats>();
  private pending = new Map<string, RequestTimingRow>();
  private readonly observers: ((route: string, status: number, ms: number) => void)[] = [];

  /** Also told of every request (the Prometheus histogram). */
  observe(observer: (route: string, status: number, ms: number) => void): void {
    this.observers.push(observer);
  }

  record(route: string, status: number, ms: number, at = Date.now()): void {
    const minute = at - (at % 60_000);
    const statusClass = Math.min(5, Math.max(1, Math.floor(status / 100)));
    const key = `${minute} ${statusClass} ${route}`;
    const p = this.pending.get(key);
    if (p) {
      p.count++;
      p.totalMs += ms;
    } else if (this.pending.size < MAX_PENDING) {
      this.pending.set(key, { minute: new Date(minute), route, statusClass, count: 1, totalMs: ms });
    }
    for (const o of this.observers) o(route, status, ms);
    let s = this.routes.get(route);
    if (!s) {
      s = { count: 0, errors: 0, totalMs: 0, buckets: BUCKETS_MS.map(() => 0) };
      this.routes.set(route, s);
    }
    s.count++;
    s.totalMs += ms;
    if (status >= 500) s.errors++;
    s.buckets[BUCKETS_MS.findIndex((b) => ms <= b)]!++;
  }

  /** Takes the per-minute aggregates gathered since the last drain. */
  drain(): RequestTimingRow[] {
    const rows = [...this.pending.values()];
    this.pending = new Map();
    return rows;
  }

  /** Puts rows back after a failed flush (they are added again, in the next batch). */
  restore(rows: RequestTimingRow[]): void {
    for (const r of rows) {
      const key = `${r.minute.getTime()} ${r.statusClass} ${r.route}`;
      const p = this.pending.get(key);
      if (p) {
        p.count += r.count;
        p.totalMs += r.totalMs;
      } else if (this.pending.size < MAX_PENDING) this.pending.set(key, { ...r });
    }
  }

  /** Summary per route: count, error rate, mean and an upper-bound p50/p99 from the buckets. */
  snapshot(): Record<string, { count: number; errors: number; meanMs: number; p50Ms: number; p99Ms: number }> {
    const out: Record<string, { count: number; errors: number; meanMs: number; p50Ms: number; p99Ms: number }> = {};
    for (const [route, s] of this.routes) {
      out[route] = { count: s.count, errors: s.errors, meanMs: s.totalMs / s.count, p50Ms: quantile(s, 0.5), p99Ms: quantile(s, 0.99) };
    }
    return out;
  }
}

function quantile(s: RouteStats, q: number): number {
  let seen = 0;
  for (let i = 0; i < s.buckets.length; i++) {
    seen += s.buckets[i]!;
    if (seen >= q * s.count) return BUCKETS_MS[i]!;
  }
  return Infinity;
}
