import { allocate } from './money.js';

/**
 * Revenue splits (instant-split). A percentage is exact to hundredths (basis points, 33.33 % =
 * 3333); a rule's percentages sum to exactly 100 %. An amount is allocated by largest remainder,
 * so the parts always sum to the amount.
 */
export interface SplitShare {
  recipientAddress: string;
  role: string;
  name: string;
  basisPoints: number;
}

export interface Allocation extends SplitShare {
  amountCents: number;
}

export const FULL_BASIS_POINTS = 10_000;

export function splitAmount(amountCents: number, shares: readonly SplitShare[]): Allocation[] {
  const parts = allocate(amountCents, shares.map((s) => BigInt(s.basisPoints)));
  return shares.map((s, i) => ({ ...s, amountCents: parts[i]! }));
}

/**
 * Streams × per-stream rate in cents, the rate given in micro-dollars (millionths) so that rates
 * like 0.0034 are exact. Fractions of a cent are truncated: the gross is never more than earned.
 */
export function grossFromStreams(streams: number, rateMicros: bigint): number {
  return Number((BigInt(streams) * rateMicros) / 10_000n);
}
