/**
 * Per-route request timings, kept in memory for the metrics endpoints: count, errors, and a
 * fixed-bucket latency histogram per `METHOD /route/:pattern` (never the raw URL, so ids
 * in paths cannot grow it).
 */
const BUCKETS_MS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, Infinity];

export interface RouteStats {
  count: number;
  errors: number;
  totalMs: number;
  buckets: number[];
}

export class RouteTimings {
  private readonly routes = new Map<string, RouteStats>();

  record(route: string, status: number, ms: number): void {
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
