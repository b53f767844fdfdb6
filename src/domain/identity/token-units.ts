/**
 * A decimal amount of a token (`"1.5"`) in its base units (`1500000n` at 6 decimals). Digits past
 * the token's decimals cannot be held by anyone, so they round the threshold up: a balance meets
 * `"0.0000001"` of a 6-decimals token only with at least 1 base unit.
 */
export function decimalToBaseUnits(amount: string, decimals: number): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!m) throw new RangeError(`not a decimal amount: ${amount}`);
  const whole = BigInt(m[1]!);
  const fraction = m[2] ?? '';
  const kept = fraction.slice(0, decimals).padEnd(decimals, '0');
  const dropped = fraction.slice(decimals);
  const units = whole * 10n ** BigInt(decimals) + (kept === '' ? 0n : BigInt(kept));
  return /[1-9]/.test(dropped) ? units + 1n : units;
}
