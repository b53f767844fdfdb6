import { describe, expect, it } from 'vitest';
import { isCalendarDate, isClockTime } from '../../../src/domain/skills/calendar.js';
import { buildSetlist } from '../../../src/domain/skills/setlist.js';

describe('calendar dates and times', () => {
  it('when a date is checked, then only real calendar days pass (leap years included)', () => {
    for (const ok of ['2028-02-29', '2000-02-29', '2027-12-31', '2027-04-30']) expect(isCalendarDate(ok), ok).toBe(true);
    for (const bad of ['2027-02-29', '1900-02-29', '2027-04-31', '2027-00-10', '2027-13-01', '2027-01-00', '2027-1-01', '0000-01-01', 'x']) expect(isCalendarDate(bad), bad).toBe(false);
    expect(isClockTime('23:59')).toBe(true);
    expect(isClockTime('24:00')).toBe(false);
    expect(isClockTime('7:00')).toBe(false);
  });
});

describe('setlist building', () => {
  const t = (id: string, minutes: number) => ({ id, durationSeconds: minutes * 60 });

  it('when tracks are chosen, then the set is the longest that fits, preferring earlier tracks', () => {
    const tracks = [t('a', 7), t('b', 5), t('c', 4), t('d', 3), t('e', 8)];
    const set = buildSetlist(tracks, 15 * 60);
    expect(set.totalSeconds).toBe(15 * 60);
    // a+b+d and a+e both make 15 minutes; the set reached with earlier tracks wins
    expect(set.tracks.map((x) => x.id)).toEqual(['a', 'b', 'd']);
    expect(buildSetlist(tracks, 2 * 60)).toEqual({ tracks: [], totalSeconds: 0 });
    expect(buildSetlist([], 60)).toEqual({ tracks: [], totalSeconds: 0 });
    const all = buildSetlist(tracks, 100 * 60);
    expect(all.totalSeconds).toBe(27 * 60);
    expect(all.tracks.map((x) => x.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('fan segments', () => {
  it('when fans are scored, then 10 per show, 5 per purchase and 1 per whole 100 streams decide the segment', async () => {
    const { engagementScore, segmentFans, segmentOf } = await import('../../../src/domain/skills/fan-segments.js');
    expect(engagementScore({ showsAttended: 3, purchases: 2, streams: 1999 })).toBe(30 + 10 + 19);
    expect([50, 49, 20, 19, 1, 0].map(segmentOf)).toEqual(['superfan', 'engaged', 'engaged', 'casual', 'casual', 'dormant']);
    const s = segmentFans([
      { id: 'a', showsAttended: 0, purchases: 0, streams: 99 },
      { id: 'b', showsAttended: 2, purchases: 0, streams: 0 },
      { id: 'c', showsAttended: 5, purchases: 0, streams: 0 },
      { id: 'd', showsAttended: 4, purchases: 1, streams: 600 },
    ]);
    expect(s.superfan.map((f) => [f.id, f.score])).toEqual([['d', 51], ['c', 50]]);
    expect(s.engaged.map((f) => f.id)).toEqual(['b']);
    expect(s.casual).toEqual([]);
    expect(s.dormant.map((f) => f.id)).toEqual(['a']);
  });
});
