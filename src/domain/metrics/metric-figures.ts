/**
 * How the metrics endpoints turn counts into the spec's figures. Zero where nothing was recorded:
 * a rate or growth over nothing is "0%", never an invented figure.
 */

/** Rounded to two decimals (percentages, averages). */
export const round2 = (n: number): number => Math.round(n * 100) / 100;

/** part / whole as a percent number, 0 when whole is 0. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? round2((part / whole) * 100) : 0;
}

/** The spec's percent strings: `"12.5%"`. */
export const percentText = (n: number): string => `${round2(n)}%`;

/** Month-over-month change as a signed percent string; "0%" when the previous month had nothing. */
export function growthText(current: number, previous: number): string {
  if (previous <= 0) return '0%';
  const change = round2(((current - previous) / previous) * 100);
  return change > 0 ? `+${change}%` : `${change}%`;
}

/** Money in cents as the spec's string, in dollars with two decimals: `"$1,234.50"`. */
export function moneyText(cents: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
}
