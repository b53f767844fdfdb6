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

/** Records one request of one route: its status and how long it took. */
export type RouteRecorder = (status: number, ms: number, at?: number) => void;

export class RouteTimings {
  private readonly routes = new Map<string, { stats: RouteStats; record: RouteRecorder }>();
  /** Per route, its unflushed (minute, status class) rows, keyed by `minute + status class`. */
  private readonly pending = new Map<string, Map<number, RequestTimingRow>>();
  private pendingCount = 0;
  private readonly observers: ((route: string, status: number, ms: number) => void)[] = [];

  /** Also told of every request (the Prometheus histogram). */
  observe(observer: (route: string, status: number, ms: number) => void): void {
    this.observers.push(observer);
  }

  record(route: string, status: number, ms: number, at?: number): void {
    this.recorder(route)(status, ms, at);
  }

  /**
   * The recorder of one route, made once: the HTTP edge keeps one per route, so a request builds
   * no key and looks up no map entry for its route.
   */
  recorder(route: string): RouteRecorder {
    const known = this.routes.get(route);
    if (known) return known.record;
    const stats: RouteStats = { count: 0, errors: 0, totalMs: 0, buckets: BUCKETS_MS.map(() => 0) };
    let pending = this.pending.get(route);
    if (!pending) this.pending.set(route, (pending = new Map()));
    const rows = pending;
    const record: RouteRecorder = (status, ms, at = Date.now()) => {
      const minute = at - (at % 60_000);
      const statusClass = Math.min(5, Math.max(1, Math.floor(status / 100)));
      const p = rows.get(minute + statusClass);
      if (p) {
        p.count++;
        p.totalMs += ms;
      } else if (this.pendingCount < MAX_PENDING) {
        rows.set(minute + statusClass, { minute: new Date(minute), route, statusClass, count: 1, totalMs: ms });
        this.pendingCount++;
      }
      for (const o of this.observers) o(route, status, ms);
      stats.count++;
      stats.totalMs += ms;
      if (status >= 500) stats.errors++;
      stats.buckets[BUCKETS_MS.findIndex((b) => ms <= b)]!++;
    };
    this.routes.set(route, { stats, record });
    return record;
  }

  /** Takes the per-minute aggregates gathered since the last drain. */
  drain(): RequestTimingRow[] {
    const rows: RequestTimingRow[] = [];
    for (const perRoute of this.pending.values()) {
      for (const r of perRoute.values()) rows.push(r);
      perRoute.clear();
    }
    this.pendingCount = 0;
    return rows;
  }

  /** Puts rows back after a failed flush (they are added again, in the next batch). */
  restore(rows: RequestTimingRow[]): void {
    for (const r of rows) {
      let perRoute = this.pending.get(r.route);
      if (!perRoute) this.pending.set(r.route, (perRoute = new Map()));
      const key = r.minute.getTime() + r.statusClass;
      const p = perRoute.get(key);
      if (p) {
        p.count += r.count;
        p.totalMs += r.totalMs;
      } else if (this.pendingCount < MAX_PENDING) {
        perRoute.set(key, { ...r });
        this.pendingCount++;
      }
    }
  }

  /** Summary per route: count, error rate, mean and an upper-bound p50/p99 from the buckets. */
  snapshot(): Record<string, { count: number; errors: number; meanMs: number; p50Ms: number; p99Ms: number }> {
    const out: Record<string, { count: number; errors: number; meanMs: number; p50Ms: number; p99Ms: number }> = {};
    for (const [route, { stats: s }] of this.routes) {
      if (s.count === 0) continue;
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
