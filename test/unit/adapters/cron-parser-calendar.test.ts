import { describe, expect, it } from 'vitest';
import { CronParserCalendar } from '../../../src/adapters/outbound/scheduling/cron-parser-calendar.js';

const calendar = new CronParserCalendar();
const next = (cron: string, timezone: string, after: string) => {
  const r = calendar.nextAfter(cron, timezone, new Date(after));
  if (!r.ok) throw new Error(`${r.field} ${r.reason}`);
  return r;
};

describe('the cron calendar (cron-parser)', () => {
  it('when a cron is read in a zone, then the next tick is that wall-clock time there, strictly after the given moment', () => {
    expect(next('30 9 * * *', 'Europe/Berlin', '2026-11-29T07:00:00Z').next.toISOString()).toBe('2026-11-29T08:30:00.000Z');
    expect(next('30 9 * * *', 'Europe/Berlin', '2026-11-29T08:30:00Z').next.toISOString()).toBe('2026-11-30T08:30:00.000Z');
    expect(next('* * * * *', 'UTC', '2026-11-29T08:30:00Z').next.toISOString()).toBe('2026-11-29T08:31:00.000Z');
    expect(next('0 9 * * 1-5', 'America/New_York', '2026-11-28T12:00:00Z').next.toISOString()).toBe('2026-11-30T14:00:00.000Z'); // Saturday → Monday
  });

  it('when the zone moves its clocks, then the tick keeps its wall-clock time (summer: an hour earlier in UTC)', () => {
    expect(next('0 9 * * *', 'Europe/Berlin', '2027-03-27T12:00:00Z').next.toISOString()).toBe('2027-03-28T07:00:00.000Z');
    expect(next('0 9 * * *', 'Europe/Berlin', '2027-03-26T12:00:00Z').next.toISOString()).toBe('2027-03-27T08:00:00.000Z');
    // 02:30 does not exist on the spring day: it runs at 03:30 (01:30 UTC); the autumn's repeated 02:30 runs once
    expect(next('30 2 * * *', 'Europe/Berlin', '2027-03-27T12:00:00Z').next.toISOString()).toBe('2027-03-28T01:30:00.000Z');
    const autumn = next('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z').next;
    expect(autumn.toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(next('30 2 * * *', 'Europe/Berlin', autumn.toISOString()).next.toISOString()).toBe('2026-10-26T01:30:00.000Z');
  });

  it('when a zone is given in another case, then its IANA name is what is stored', () => {
    expect(next('0 9 * * *', 'utc', '2026-11-29T07:00:00Z').timezone).toBe('UTC');
    expect(next('0 9 * * *', 'europe/berlin', '2026-11-29T07:00:00Z').timezone).toBe('Europe/Berlin');
  });

  it('when the zone or the cron cannot be read, then the field at fault and why, never a throw', () => {
    expect(calendar.nextAfter('0 9 * * *', 'Mars/Olympus_Mons', new Date())).toMatchObject({ ok: false, field: 'timezone' });
    expect(calendar.nextAfter('0 9 * * *', '', new Date())).toMatchObject({ ok: false, field: 'timezone' });
    for (const cron of ['61 * * * *', 'bogus', '0 9 30 2 *', '0 25 * * *']) expect(calendar.nextAfter(cron, 'UTC', new Date()), cron).toMatchObject({ ok: false, field: 'cron' });
  });
});
