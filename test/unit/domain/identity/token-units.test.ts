import { describe, expect, it } from 'vitest';
import { decimalToBaseUnits } from '../../../../src/domain/identity/token-units.js';

describe('decimalToBaseUnits', () => {
  it('when the amount fits the decimals, then it is exact', () => {
    expect(decimalToBaseUnits('1', 18)).toBe(10n ** 18n);
    expect(decimalToBaseUnits('1.5', 6)).toBe(1_500_000n);
    expect(decimalToBaseUnits('0.000001', 6)).toBe(1n);
    expect(decimalToBaseUnits('0', 6)).toBe(0n);
    expect(decimalToBaseUnits('42', 0)).toBe(42n);
  });

  it('when the amount has more digits than the token, then the threshold rounds up (nobody holds a fraction of a base unit)', () => {
    expect(decimalToBaseUnits('0.0000001', 6)).toBe(1n);
    expect(decimalToBaseUnits('1.0000000', 6)).toBe(1_000_000n);
    expect(decimalToBaseUnits('1.5', 0)).toBe(2n);
  });

  it('when the text is not a decimal, then it throws', () => {
    expect(() => decimalToBaseUnits('1e6', 6)).toThrow(RangeError);
    expect(() => decimalToBaseUnits('-1', 6)).toThrow(RangeError);
  });
});
