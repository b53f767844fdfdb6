import { describe, expect, it } from 'vitest';
import { calendarStarts } from '../../../../src/domain/metrics/calendar.js';
import { growthText, moneyText, percentOf, percentText } from '../../../../src/domain/metrics/metric-figures.js';
import { bucketPlan } from '../../../../src/domain/metrics/metrics-range.js';

describe('metric figures', () => {
  it('when there is nothing to compare with, then rates and growth are 0 / "0%", never invented', () => {
    expect(percentOf(3, 0)).toBe(0);
    expect(growthText(5, 0)).toBe('0%');
    expect(growthText(0, 0)).toBe('0%');
  });

  it('when there is, then signed percent strings rounded to two decimals, and dollars from cents', () => {
    expect(growthText(150, 100)).toBe('+50%');
    expect(growthText(50, 100)).toBe('-50%');
    expect(growthText(100, 100)).toBe('0%');
    expect(percentText(percentOf(2, 3))).toBe('66.67%');
    expect(moneyText(123_450)).toBe('$1,234.50');
    expect(moneyText(0)).toBe('$0.00');
  });
});

describe('bucket plans and calendar starts', () => {
  it('when a range is asked, then its buckets are aligned to the UTC epoch and the last holds now', () => {
    const now = new Date('2026-11-24T23:16:40Z');
    expect(bucketPlan('24h', now)).toEqual({ from: new Date('2026-11-24T00:00:00Z'), stepSeconds: 3600, count: 24 });
    expect(bucketPlan('7d', now)).toEqual({ from: new Date('2026-11-18T00:00:00Z'), stepSeconds: 21600, count: 28 });
    expect(bucketPlan('30d', now)).toEqual({ from: new Date('2026-10-26T00:00:00Z'), stepSeconds: 86400, count: 30 });
  });

  it('when now is a Sunday in January, then the week starts on Monday and the previous month is December', () => {
    expect(calendarStarts(new Date('2027-01-03T10:00:00Z'))).toEqual({
      day: new Date('2027-01-03T00:00:00Z'),
      week: new Date('2026-12-28T00:00:00Z'),
      month: new Date('2027-01-01T00:00:00Z'),
      previousMonth: new Date('2026-12-01T00:00:00Z'),
    });
  });
});
