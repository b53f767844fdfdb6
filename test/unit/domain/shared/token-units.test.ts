import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalToTokenUnits } from '../../../../src/domain/shared/token-units.js';

/** Base units back to decimal text with exactly `decimals` fraction digits (the inverse, for the properties). */
const toText = (units: bigint, decimals: number) => {
  if (decimals === 0) return units.toString();
  const digits = units.toString().padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
};

const decimalsArb = fc.integer({ min: 0, max: 30 });
const unitsArb = fc.bigInt({ min: 0n, max: 10n ** 40n });

describe('decimalToTokenUnits', () => {
  it('when the amount fits the decimals, then it is exact', () => {
    expect(decimalToTokenUnits('1', 18)).toBe(10n ** 18n);
    expect(decimalToTokenUnits('1.5', 6)).toBe(1_500_000n);
    expect(decimalToTokenUnits('0.000001', 6)).toBe(1n);
    expect(decimalToTokenUnits('0', 6)).toBe(0n);
    expect(decimalToTokenUnits('42', 0)).toBe(42n);
  });

  it('when zeros stand past the decimals, then they are accepted and change nothing', () => {
    expect(decimalToTokenUnits('1.5000000', 6)).toBe(1_500_000n);
    expect(decimalToTokenUnits('12.3400', 2)).toBe(1234n);
    expect(decimalToTokenUnits('7.000', 0)).toBe(7n);
  });

  it('when a significant digit stands past the decimals, then it is refused unless the caller asks to round up', () => {
    expect(decimalToTokenUnits('0.0000001', 6)).toBeNull();
    expect(decimalToTokenUnits('1.5', 0)).toBeNull();
    expect(decimalToTokenUnits('0.0000001', 6, { rounding: 'up' })).toBe(1n);
    expect(decimalToTokenUnits('1.5', 0, { rounding: 'up' })).toBe(2n);
    expect(decimalToTokenUnits('1.0000000', 6, { rounding: 'up' })).toBe(1_000_000n);
  });

  it('when the text is not plain decimal digits, then it is null', () => {
    for (const text of ['', '.', '1.', '.5', '-1', '+1', '1e6', ' 1', '1 ', '0x10', '1,5', '١']) {
      expect(decimalToTokenUnits(text, 6)).toBeNull();
      expect(decimalToTokenUnits(text, 6, { rounding: 'up' })).toBeNull();
    }
  });

  it('for any amount written with its decimals, then it reads back exactly, with or without trailing zeros', () => {
    fc.assert(
      fc.property(unitsArb, decimalsArb, fc.integer({ min: 0, max: 10 }), (units, decimals, zeros) => {
        const text = toText(units, decimals);
        const padded = zeros === 0 ? text : `${text}${decimals === 0 ? '.' : ''}${'0'.repeat(zeros)}`;
        expect(decimalToTokenUnits(text, decimals)).toBe(units);
        expect(decimalToTokenUnits(padded, decimals)).toBe(units);
        expect(decimalToTokenUnits(padded, decimals, { rounding: 'up' })).toBe(units);
      }),
    );
  });

  it('for any amount with a significant digit past the decimals, then exact refuses it and up gives the next base unit', () => {
    fc.assert(
      fc.property(unitsArb, decimalsArb, fc.stringMatching(/^[0-9]{0,8}[1-9]$/), (units, decimals, extra) => {
        const text = `${toText(units, decimals)}${decimals === 0 ? '.' : ''}${extra}`;
        expect(decimalToTokenUnits(text, decimals)).toBeNull();
        expect(decimalToTokenUnits(text, decimals, { rounding: 'up' })).toBe(units + 1n);
      }),
    );
  });

  it('for any text, rounding up agrees with exact wherever exact reads an amount', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), decimalsArb, (text, decimals) => {
        const exact = decimalToTokenUnits(text, decimals);
        const up = decimalToTokenUnits(text, decimals, { rounding: 'up' });
        if (exact !== null) expect(up).toBe(exact);
      }),
    );
  });
});
