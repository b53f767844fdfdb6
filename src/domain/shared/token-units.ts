/**
 * Decimal text of a token amount (`"1.5"`) in the token's base units (`1500000n` at 6 decimals):
 * the one rule every caller uses (docs/decisions/0300-decimal-text-to-token-units.md).
 *
 * - The text is digits, optionally a point and more digits (`"12"`, `"0.01"`); no sign, exponent,
 *   spaces or bare point. Anything else is null.
 * - The value is exact. Digits past the token's decimals are accepted when they are zeros
 *   (`"1.5000000"` at 6 decimals is `1500000n`): they change nothing.
 * - A significant digit past the token's decimals cannot be held by anyone: by default the text is
 *   refused (null). A caller for whom the amount is a threshold asks for `rounding: 'up'`, and gets
 *   the smallest amount of base units that is at least the text's value.
 */
export function decimalToTokenUnits(text: string, decimals: number, options: { rounding?: 'exact' | 'up' } = {}): bigint | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const fraction = m[2] ?? '';
  const kept = fraction.slice(0, decimals).padEnd(decimals, '0');
  const beyond = /[1-9]/.test(fraction.slice(decimals));
  if (beyond && options.rounding !== 'up') return null;
  const units = BigInt(m[1]!) * 10n ** BigInt(decimals) + (kept === '' ? 0n : BigInt(kept));
  return beyond ? units + 1n : units;
}
