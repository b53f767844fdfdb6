import { describe, expect, it } from 'vitest';
import {
  availableUnits,
  nextUsageReset,
  planReservation,
  planSettlement,
  unitsForSttSeconds,
  unitsForTokens,
  unitsForTtsCharacters,
  usageDay,
} from '../../../../src/domain/billing/units.js';

describe('unit conversions', () => {
  it('when counting tokens, then 1 unit per started 1,000 and at least 1 a call', () => {
    expect([0, 1, 999, 1000, 1001, 2500, 10_000].map(unitsForTokens)).toEqual([1, 1, 1, 1, 2, 3, 10]);
  });
  it('when counting tts characters, then 1 unit per started 1,000, at least 1', () => {
    expect([0, 1, 1000, 1001, 5000].map(unitsForTtsCharacters)).toEqual([1, 1, 1, 2, 5]);
  });
  it('when counting stt seconds, then 1 unit per started minute, at least 1', () => {
    expect([0, 1, 59.5, 60, 61, 3600].map(unitsForSttSeconds)).toEqual([1, 1, 1, 1, 2, 60]);
  });
  it('when given a negative or NaN amount, then it throws', () => {
    expect(() => unitsForTokens(-1)).toThrow(RangeError);
    expect(() => unitsForTtsCharacters(Number.NaN)).toThrow(RangeError);
    expect(() => unitsForSttSeconds(Infinity)).toThrow(RangeError);
  });
});

describe('usage day', () => {
  it('when keying a time, then the key is its UTC date whatever the local zone', () => {
    expect(usageDay(new Date('2026-03-01T23:59:59.999Z'))).toBe('2026-03-01');
    expect(usageDay(new Date('2026-03-02T00:00:00.000Z'))).toBe('2026-03-02');
    expect(usageDay(new Date('2026-03-01T23:30:00-05:00'))).toBe('2026-03-02');
  });
  it('when asking for the next reset, then it is the next 00:00 UTC', () => {
    expect(nextUsageReset(new Date('2026-12-31T12:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(nextUsageReset(new Date('2026-03-02T00:00:00Z')).toISOString()).toBe('2026-03-03T00:00:00.000Z');
  });
});

describe('reservation', () => {
  it('when the day has units left, then they pay first and no credit is spent', () => {
    expect(planReservation({ dailyUnits: 600, usedToday: 100, credits: 5 }, 50)).toEqual({
      ok: true, units: 50, fromDailyUnits: 50, fromCreditUnits: 0, creditsSpent: 0, usedTodayAfter: 150, allowanceUsedTodayAfter: 150, creditsAfter: 5,
    });
  });

  it('when a call crosses the daily units, then the rest opens a credit block', () => {
    expect(planReservation({ dailyUnits: 600, usedToday: 590, credits: 2 }, 30)).toEqual({
      ok: true, units: 30, fromDailyUnits: 10, fromCreditUnits: 20, creditsSpent: 1, usedTodayAfter: 620, allowanceUsedTodayAfter: 600, creditsAfter: 1,
    });
  });

  it('when an open credit block has room, then the next call uses it without spending', () => {
    const r = planReservation({ dailyUnits: 600, usedToday: 620, credits: 1 }, 80);
    expect(r).toMatchObject({ ok: true, fromCreditUnits: 80, creditsSpent: 0, usedTodayAfter: 700, creditsAfter: 1 });
  });

  it('when a call spans several blocks, then one credit per started block is spent', () => {
    const r = planReservation({ dailyUnits: 600, usedToday: 650, credits: 3 }, 251);
    // overflow goes 50 -> 301: blocks 1 -> 4
    expect(r).toMatchObject({ ok: true, creditsSpent: 3, creditsAfter: 0, usedTodayAfter: 901 });
  });

  it('when credits cannot cover it, then it is refused with what is available', () => {
    expect(planReservation({ dailyUnits: 600, usedToday: 600, credits: 0 }, 1)).toEqual({
      ok: false, code: 'USAGE_EXHAUSTED', units: 1, availableUnits: 0,
    });
    const b = { dailyUnits: 600, usedToday: 550, credits: 1 };
    expect(availableUnits(b)).toBe(150);
    expect(planReservation(b, 150).ok).toBe(true);
    expect(planReservation(b, 151)).toMatchObject({ ok: false, availableUnits: 150 });
  });

  it('when there is no plan, then only credits pay', () => {
    expect(planReservation({ dailyUnits: 0, usedToday: 0, credits: 1 }, 100)).toMatchObject({ ok: true, fromDailyUnits: 0, creditsSpent: 1 });
    expect(planReservation({ dailyUnits: 0, usedToday: 0, credits: 0 }, 1).ok).toBe(false);
  });

  it('when asked for a non-positive or fractional reservation, then it throws', () => {
    const b = { dailyUnits: 600, usedToday: 0, credits: 0 };
    expect(() => planReservation(b, 0)).toThrow(RangeError);
    expect(() => planReservation(b, 1.5)).toThrow(RangeError);
  });

  it('when any reservation is accepted, then available units never go negative and credits match the blocks', () => {
    let b = { dailyUnits: 600, usedToday: 0, credits: 7 };
    for (let i = 0; i < 200; i++) {
      const r = planReservation(b, 1 + ((i * 37) % 90));
      if (!r.ok) break;
      b = { ...b, usedToday: r.usedTodayAfter, credits: r.creditsAfter };
      expect(b.credits).toBe(7 - Math.ceil(Math.max(0, b.usedToday - 600) / 100));
      expect(availableUnits(b)).toBeGreaterThanOrEqual(0);
    }
    expect(b.usedToday).toBeLessThanOrEqual(600 + 700);
  });
});

describe('settlement', () => {
  it('when the call used fewer units than reserved, then units and emptied blocks come back', () => {
    // reserved 30 at 590 -> 620 with 1 credit; actual 5 -> 595: block closes, credit refunded
    expect(planSettlement({ dailyUnits: 600, usedToday: 620, credits: 1 }, 30, 5)).toEqual({ usedTodayAfter: 595, allowanceUsedTodayAfter: 595, creditsDelta: 1, waivedCredits: 0 });
  });

  it('when the call failed, then releasing returns everything reserved', () => {
    expect(planSettlement({ dailyUnits: 600, usedToday: 150, credits: 5 }, 50, 0)).toEqual({ usedTodayAfter: 100, allowanceUsedTodayAfter: 100, creditsDelta: 0, waivedCredits: 0 });
  });

  it('when the call used more than reserved, then new blocks are charged and what the balance lacks is waived', () => {
    expect(planSettlement({ dailyUnits: 600, usedToday: 600, credits: 2 }, 1, 150)).toEqual({ usedTodayAfter: 749, allowanceUsedTodayAfter: 600, creditsDelta: -2, waivedCredits: 0 });
    expect(planSettlement({ dailyUnits: 600, usedToday: 600, credits: 0 }, 1, 150)).toEqual({ usedTodayAfter: 749, allowanceUsedTodayAfter: 600, creditsDelta: 0, waivedCredits: 2 });
  });

  it('when the reservation matched the real amount, then nothing changes', () => {
    expect(planSettlement({ dailyUnits: 600, usedToday: 700, credits: 3 }, 20, 20)).toEqual({ usedTodayAfter: 700, allowanceUsedTodayAfter: 600, creditsDelta: 0, waivedCredits: 0 });
  });
});

describe('a plan that changes while a reservation is open', () => {
  it('when the allowance drops to 0 before the release, then the units go back to the allowance and no credit is refunded', () => {
    // 10,000 reserved on network: all from the allowance; then past_due
    const b = { dailyUnits: 0, usedToday: 10_000, allowanceUsedToday: 10_000, credits: 200 };
    expect(planSettlement(b, 10_000, 0)).toEqual({ usedTodayAfter: 0, allowanceUsedTodayAfter: 0, creditsDelta: 0, waivedCredits: 0 });
  });

  it('when the allowance grows before the release, then the credit-paid units come back as credits', () => {
    // 500 reserved without a plan (5 credits); then network
    const b = { dailyUnits: 10_000, usedToday: 500, allowanceUsedToday: 0, credits: 5 };
    expect(planSettlement(b, 500, 0)).toEqual({ usedTodayAfter: 0, allowanceUsedTodayAfter: 0, creditsDelta: 5, waivedCredits: 0 });
    expect(planSettlement(b, 500, 120)).toEqual({ usedTodayAfter: 120, allowanceUsedTodayAfter: 0, creditsDelta: 3, waivedCredits: 0 });
  });

  it('when the allowance grows, then a new reservation takes it even though credits paid for earlier units', () => {
    const b = { dailyUnits: 10_000, usedToday: 500, allowanceUsedToday: 0, credits: 5 };
    expect(planReservation(b, 1_000)).toMatchObject({ ok: true, fromDailyUnits: 1_000, creditsSpent: 0, allowanceUsedTodayAfter: 1_000 });
    expect(availableUnits(b)).toBe(10_000 + 0 + 500);
  });
});
