import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostUids } from '../../../../src/adapters/outbound/agent-runtimes/process/host-uids.js';
import { removeScratchLeftovers } from '../../../../src/adapters/outbound/agent-runtimes/process/scratch-leftovers.js';

const RANGE = { first: 200_000, last: 200_003 };
const none = async () => new Set<number>();
const isRoot = process.getuid?.() === 0;

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

describe('HostUids: a uid passes between tenants, their files do not', () => {
  it.skipIf(!isRoot)('when a uid is handed to an instance, then what an earlier holder left in the scratch folders is gone, and nobody else\'s (needs root to own files as another uid)', async () => {
    const [tmp, shm] = [mkdtempSync(join(tmpdir(), 'scratch-tmp-')), mkdtempSync(join(tmpdir(), 'scratch-shm-'))];
    try {
      const uid = RANGE.first;
      const secret = join(tmp, 'previous-tenant-notes.txt');
      writeFileSync(secret, 'a tenant\'s data');
      chownSync(secret, uid, uid);
      mkdirSync(join(shm, 'cache'));
      writeFileSync(join(shm, 'cache', 'inner'), 'x');
      chownSync(join(shm, 'cache'), uid, uid);
      writeFileSync(join(tmp, 'someone-else'), 'kept');
      chownSync(join(tmp, 'someone-else'), uid + 1, uid + 1);
      symlinkSync('/etc/hostname', join(tmp, 'link-to-root-file'));
      const uids = new HostUids({ first: uid, last: uid }, none, (u) => removeScratchLeftovers(u, [tmp, shm]));
      expect(await uids.take('next-tenant')).toEqual({ uid, gid: uid });
      expect([existsSync(secret), existsSync(join(shm, 'cache'))]).toEqual([false, false]);
      expect([existsSync(join(tmp, 'someone-else')), existsSync(join(tmp, 'link-to-root-file')), existsSync('/etc/hostname')]).toEqual([true, true, true]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
      rmSync(shm, { recursive: true, force: true });
    }
  });
});
