import { describe, expect, it } from 'vitest';
import { HostUids } from '../../../../src/adapters/outbound/agent-runtimes/process/host-uids.js';

const RANGE = { first: 200_000, last: 200_003 };
const none = async () => new Set<number>();

describe('HostUids: one uid per instance', () => {
  it('when an instance asks twice (also at once), then it gets the same uid in the range, with a gid of the same number', async () => {
    const uids = new HostUids(RANGE, none);
    const [a, again] = await Promise.all([uids.take('user-a'), uids.take('user-a')]);
    expect(again).toEqual(a);
    expect(a.gid).toBe(a.uid);
    expect(a.uid).toBeGreaterThanOrEqual(RANGE.first);
    expect(a.uid).toBeLessThanOrEqual(RANGE.last);
    // derived from the id: another supervisor (or a later start) prefers the same one
    expect(await new HostUids(RANGE, none).take('user-a')).toEqual(a);
  });

  it('when every instance of a full range asks at once, then no two share a uid; one more is refused, until one is released', async () => {
    const uids = new HostUids(RANGE, none);
    const taken = await Promise.all(['a', 'b', 'c', 'd'].map((u) => uids.take(u)));
    expect(new Set(taken.map((t) => t.uid)).size).toBe(4);
    await expect(uids.take('e')).rejects.toThrow(/No free uid left in RUNTIME_UID_RANGE/);
    uids.release('c');
    expect((await uids.take('e')).uid).toBe(taken[2]!.uid);
  });

  it('when a uid is held by any running process (another worker\'s host, a leftover), then it is skipped', async () => {
    const preferred = (await new HostUids(RANGE, none).take('user-a')).uid;
    const uids = new HostUids(RANGE, async () => new Set([preferred]));
    expect((await uids.take('user-a')).uid).not.toBe(preferred);
  });
});
