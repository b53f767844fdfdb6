/**
 * groupie-manager `segment`: a fan's engagement score is 10 per show attended, 5 per purchase and
 * 1 per 100 streams (whole hundreds); the segment follows from the score.
 */
export interface FanActivity {
  showsAttended: number;
  purchases: number;
  streams: number;
}

export const FAN_SEGMENTS = ['superfan', 'engaged', 'casual', 'dormant'] as const;
export type FanSegment = (typeof FAN_SEGMENTS)[number];

export function engagementScore(f: FanActivity): number {
  return f.showsAttended * 10 + f.purchases * 5 + Math.floor(f.streams / 100);
}

export function segmentOf(score: number): FanSegment {
  if (score >= 50) return 'superfan';
  if (score >= 20) return 'engaged';
  if (score >= 1) return 'casual';
  return 'dormant';
}

/** Fans by segment, each segment's fans highest score first (ties keep the given order). */
export function segmentFans<T extends FanActivity>(fans: readonly T[]): Record<FanSegment, (T & { score: number })[]> {
  const out = Object.fromEntries(FAN_SEGMENTS.map((s) => [s, [] as (T & { score: number })[]])) as Record<FanSegment, (T & { score: number })[]>;
  for (const f of fans) {
    const score = engagementScore(f);
    out[segmentOf(score)].push({ ...f, score });
  }
  for (const s of FAN_SEGMENTS) out[s].sort((a, b) => b.score - a.score);
  return out;
}
