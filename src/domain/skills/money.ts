/**
 * Money and other exact decimals of the skills. A decimal a caller sends as a JSON number is taken
 * at its shortest round-trip decimal text (JavaScript's `String(n)`: `12.5` is "12.5", `0.1 + 0.2`
 * is "0.30000000000000004") and scaled exactly; a value that needs more fractional digits than the
 * scale allows is refused, never rounded. Amounts are integer minor units (cents) within the safe
 * integer range.
 */

/** `n × 10^scale` as an exact bigint, or null when `n` is not finite, negative, or has more than `scale` decimals. */
export function toScaled(n: number, scale: number): bigint | null {
  if (!Number.isFinite(n) || n < 0) return null;
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(n));
  if (!m) return null;
  const [, int, frac = '', exp = '0'] = m;
  const digits = BigInt(int! + frac);
  const power = Number(exp) - frac.length + scale;
  if (power >= 0) return digits * 10n ** BigInt(power);
  const divisor = 10n ** BigInt(-power);
  return digits % divisor === 0n ? digits / divisor : null;
}

/** A decimal amount of major units (dollars) as cents, or null when it has sub-cent digits or exceeds the safe range. */
export function toCents(amount: number): number | null {
  const cents = toScaled(amount, 2);
  if (cents === null || cents > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(cents);
}

/** Cents as a decimal text of major units: 150050 → "1500.50". */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Splits `total` minor units over `weights` so the parts sum exactly to `total`: each part is the
 * floor of its exact share, and the cents left over go one each to the largest remainders; equal
 * remainders go to the earlier weight (the order the caller gave). Weights are non-negative integers
 * with a positive sum.
 */
export function allocate(total: number, weights: readonly bigint[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum <= 0n) throw new RangeError('weights must have a positive sum');
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError('total must be a non-negative safe integer');
  const t = BigInt(total);
  const parts = weights.map((w) => (t * w) / sum);
  const remainders = weights.map((w, i) => ({ i, r: (t * w) % sum }));
  let left = t - parts.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0n) break;
    parts[i]! += 1n;
    left -= 1n;
  }
  return parts.map(Number);
}
