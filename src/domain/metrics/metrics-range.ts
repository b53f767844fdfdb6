/**
 * The historical ranges the spec names and how each is cut into buckets: hourly for a day,
 * six-hourly for a week, daily for a month. Buckets are aligned to the UTC epoch, the last one is
 * the bucket now falls in (still filling).
 */
export const METRICS_RANGES = ['24h', '7d', '30d'] as const;
export type MetricsRange = (typeof METRICS_RANGES)[number];

export interface BucketPlan {
  /** Start of the first bucket (inclusive). */
  from: Date;
  stepSeconds: number;
  count: number;
}

const HOUR = 3600;
const PLANS: Record<MetricsRange, { stepSeconds: number; count: number }> = {
  '24h': { stepSeconds: HOUR, count: 24 },
  '7d': { stepSeconds: 6 * HOUR, count: 28 },
  '30d': { stepSeconds: 24 * HOUR, count: 30 },
};

export function bucketPlan(range: MetricsRange, now: Date): BucketPlan {
  const { stepSeconds, count } = PLANS[range];
  const stepMs = stepSeconds * 1000;
  const current = Math.floor(now.getTime() / stepMs) * stepMs;
  return { from: new Date(current - (count - 1) * stepMs), stepSeconds, count };
}
