import { describe, expect, it } from 'vitest';
import {
  changeHeartbeat,
  defaultHeartbeat,
  nextHeartbeatAfterChange,
  nextHeartbeatAfterSend,
  parseHeartbeatFrequency,
} from '../../../../src/domain/heartbeat/heartbeat-schedule.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const minutes = (n: number) => n * 60_000;

describe('heartbeat frequency grammar', () => {
  it('when a frequency is <positive integer><m|h|d> between 5m and 30d, then it parses to its length', () => {
    expect(parseHeartbeatFrequency('5m').ms).toBe(minutes(5));
    expect(parseHeartbeatFrequency('30m').ms).toBe(minutes(30));
    expect(parseHeartbeatFrequency('3h').ms).toBe(minutes(180));
    expect(parseHeartbeatFrequency('1d').ms).toBe(minutes(1440));
    expect(parseHeartbeatFrequency('30d').ms).toBe(minutes(30 * 1440));
    expect(parseHeartbeatFrequency('720h').text).toBe('720h');
  });

  it('when a frequency breaks the grammar or the bounds, then VALIDATION_ERROR', () => {
    for (const bad of ['', '3', 'h', '0h', '03h', '-1h', '1.5h', '3H', '3 h', ' 3h', '3hours', '1w', '4m', '31d', '721h', '9999999m']) {
      expect(() => parseHeartbeatFrequency(bad), bad).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    }
  });
});

describe('next heartbeat', () => {
  const f = parseHeartbeatFrequency('1h');

  it('when disabled, then there is no next heartbeat', () => {
    expect(nextHeartbeatAfterChange({ enabled: false, frequency: f, lastHeartbeat: null, now: NOW })).toBeNull();
  });

  it('when enabled without a last heartbeat, then the next is one period from now', () => {
    expect(nextHeartbeatAfterChange({ enabled: true, frequency: f, lastHeartbeat: null, now: NOW })).toEqual(new Date(NOW.getTime() + minutes(60)));
  });

  it('when enabled after a recent heartbeat, then the next is one period after it; long overdue, then now', () => {
    const last = new Date(NOW.getTime() - minutes(20));
    expect(nextHeartbeatAfterChange({ enabled: true, frequency: f, lastHeartbeat: last, now: NOW })).toEqual(new Date(last.getTime() + minutes(60)));
    const old = new Date(NOW.getTime() - minutes(600));
    expect(nextHeartbeatAfterChange({ enabled: true, frequency: f, lastHeartbeat: old, now: NOW })).toEqual(NOW);
  });

  it('when a heartbeat was sent, then the next is one period later', () => {
    expect(nextHeartbeatAfterSend(f, NOW)).toEqual(new Date(NOW.getTime() + minutes(60)));
  });
});

describe('settings changes', () => {
  it('when nothing is stored, then the defaults are every 3h, disabled', () => {
    expect(defaultHeartbeat()).toEqual({ frequency: '3h', enabled: false, lastHeartbeat: null, nextHeartbeat: null });
    expect(changeHeartbeat(null, {}, NOW)).toEqual(defaultHeartbeat());
  });

  it('when only enabled is given, then the stored frequency is kept and the next heartbeat scheduled', () => {
    const current = { frequency: '30m', enabled: false, lastHeartbeat: null, nextHeartbeat: null };
    expect(changeHeartbeat(current, { enabled: true }, NOW)).toEqual({ frequency: '30m', enabled: true, lastHeartbeat: null, nextHeartbeat: new Date(NOW.getTime() + minutes(30)) });
  });

  it('when the frequency is invalid, then VALIDATION_ERROR whatever else is given', () => {
    expect(() => changeHeartbeat(null, { frequency: '2s', enabled: true }, NOW)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });
});
