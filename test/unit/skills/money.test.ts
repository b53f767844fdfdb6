import { describe, expect, it } from 'vitest';
import { allocate, formatCents, toCents, toScaled } from '../../../src/domain/skills/money.js';
import { grossFromStreams, splitAmount } from '../../../src/domain/skills/split.js';
import { settle } from '../../../src/domain/skills/settlement.js';

describe('exact money', () => {
  it('when decimals are converted, then they scale exactly and sub-cent amounts are refused, never rounded', () => {
    expect(toCents(1500)).toBe(150000);
    expect(toCents(1500.5)).toBe(150050);
    expect(toCents(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996 in floating point
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(1e21)).toBeNull(); // beyond the safe integer range of cents
    expect(toCents(0.001)).toBeNull();
    expect(toCents(0.1 + 0.2)).toBeNull(); // "0.30000000000000004"
    expect(toCents(-1)).toBeNull();
    expect(toCents(Number.NaN)).toBeNull();
    expect(toScaled(0.0034, 6)).toBe(3400n);
    expect(toScaled(1e-7, 6)).toBeNull();
    expect(toScaled(2e-6, 6)).toBe(2n);
    expect(formatCents(150050)).toBe('1500.50');
    expect(formatCents(7)).toBe('0.07');
  });

  it('when an amount is allocated, then the parts sum exactly and the leftover cents go to the largest remainders, ties to the earlier weight', () => {
    expect(allocate(100, [1n, 1n, 1n])).toEqual([34, 33, 33]);
    expect(allocate(1000, [3333n, 3333n, 3334n])).toEqual([333, 333, 334]);
    expect(allocate(1, [5000n, 5000n])).toEqual([1, 0]);
    expect(allocate(101, [2500n, 2500n, 2500n, 2500n])).toEqual([26, 25, 25, 25]);
    // 7 * 6000/10000 = 4.2 and 7 * 4000/10000 = 2.8: the larger remainder (0.8) gets the cent
    expect(allocate(7, [6000n, 4000n])).toEqual([4, 3]);
    for (let total = 0; total < 500; total += 7) {
      const parts = allocate(total, [1234n, 4321n, 4445n]);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
    }
  });

  it('when a rule splits an amount, then each recipient gets its share and the shares sum to the amount', () => {
    const shares = [
      { recipientAddress: 'a', role: 'artist', name: 'A', basisPoints: 5000 },
      { recipientAddress: 'p', role: 'producer', name: 'P', basisPoints: 3333 },
      { recipientAddress: 'm', role: 'manager', name: 'M', basisPoints: 1667 },
    ];
    expect(splitAmount(10_000, shares).map((a) => a.amountCents)).toEqual([5000, 3333, 1667]);
    expect(splitAmount(1, shares).map((a) => a.amountCents)).toEqual([1, 0, 0]);
    expect(splitAmount(99_999, shares).map((a) => a.amountCents)).toEqual([49999, 33330, 16670]); // remainders .5, .67, .83: the two cents left go to M then P
  });

  it('when streams are priced, then the gross is streams × rate in cents with fractions of a cent dropped', () => {
    expect(grossFromStreams(1_000_000, 3400n)).toBe(340_000); // 1M × $0.0034 = $3,400.00
    expect(grossFromStreams(333, 3400n)).toBe(113); // $1.1322 → 113 cents
    expect(grossFromStreams(0, 3400n)).toBe(0);
  });

  it('when a booking settles, then payout is guarantee + backend and the deposit is deducted (or refunded if larger)', () => {
    expect(settle({ guaranteeCents: 500_000, backendCents: 125_050, depositCents: 250_000 })).toEqual({
      guaranteeCents: 500_000, backendCents: 125_050, depositCents: 250_000, payoutCents: 625_050, balanceDueCents: 375_050, refundDueCents: 0,
    });
    expect(settle({ guaranteeCents: 1000, backendCents: 0, depositCents: 1500 })).toMatchObject({ payoutCents: 1000, balanceDueCents: 0, refundDueCents: 500 });
  });
});
