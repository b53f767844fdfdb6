import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { removeScratchLeftovers } from './scratch-leftovers.js';

/** An inclusive range of OS uids no account of the machine uses (RUNTIME_UID_RANGE). */
export interface UidRange {
  first: number;
  last: number;
}

/** What a host runs as: the uid, and a gid of the same number (its own group; supplementary groups are dropped). */
export interface HostIdentity {
  uid: number;
  gid: number;
}

/**
 * One OS uid per instance, for a supervisor running as root: two instances' programs never share
 * a uid, so one cannot signal, trace or read the /proc files of another, nor of the service (root).
 * No /etc/passwd entry is needed: the kernel only knows numbers.
 *
 * The uid is derived from the user id (sha256, modulo the range), so an instance usually runs under
 * the same uid across restarts; it moves to the next free one when that uid is held by another
 * instance of this supervisor, or is the uid of any process running on the machine (another worker's
 * host, a leftover). Two workers on one machine choosing the same free uid in the same instant could
 * still collide: the /proc look is not a lock. Before a chosen uid is handed out, what any earlier
 * holder left under it in the shared scratch folders (/tmp, /var/tmp, /dev/shm) is removed
 * (decision 0393): a uid passes between tenants, their files must not.
 */
export class HostUids {
  /** Chosen uids, by user id. */
  private readonly uids = new Map<string, number>();
  /** Choices in progress: a concurrent start of the same instance waits for the same one. */
  private readonly pending = new Map<string, Promise<HostIdentity>>();
  /** Choices are made one at a time, each seeing the ones before it. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly range: UidRange,
    private readonly uidsRunning: () => Promise<ReadonlySet<number>> = uidsOfRunningProcesses,
    private readonly clearLeftovers: (uid: number) => Promise<unknown> = removeScratchLeftovers,
  ) {}

  /** The instance's identity: the same while it is held. */
  take(userId: string): Promise<HostIdentity> {
    const known = this.uids.get(userId);
    if (known !== undefined) return Promise.resolve({ uid: known, gid: known });
    let choice = this.pending.get(userId);
    if (!choice) {
      choice = this.chain.then(() => this.choose(userId)).finally(() => this.pending.delete(userId));
      this.chain = choice.catch(() => undefined);
      this.pending.set(userId, choice);
    }
    return choice;
  }

  /** The instance no longer runs here: its uid may go to another. */
  release(userId: string): void {
    this.uids.delete(userId);
  }

  private async choose(userId: string): Promise<HostIdentity> {
    const size = this.range.last - this.range.first + 1;
    const start = createHash('sha256').update(userId).digest().readUInt32BE(0) % size;
    const others = new Set(this.uids.values());
    const running = await this.uidsRunning();
    for (let i = 0; i < size; i++) {
      const uid = this.range.first + ((start + i) % size);
      if (others.has(uid) || running.has(uid)) continue;
      // no process runs as it (checked just above), so nothing can add to what is removed here
      await this.clearLeftovers(uid);
      this.uids.set(userId, uid);
      return { uid, gid: uid };
    }
    throw new Error(`No free uid left in RUNTIME_UID_RANGE ${this.range.first}-${this.range.last}`);
  }
}

/** The uids that own a /proc/<pid> entry right now (a process's entry belongs to its effective uid). */
async function uidsOfRunningProcesses(): Promise<ReadonlySet<number>> {
  const names = await readdir('/proc').catch(() => [] as string[]);
  const uids = await Promise.all(names.filter((n) => /^\d+$/.test(n)).map((n) => stat(`/proc/${n}`).then((s) => s.uid, () => -1)));
  return new Set(uids);
}
