import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The machine's shared scratch folders: any uid may write there, and what it writes outlives it. */
export const SHARED_SCRATCH_DIRS = ['/tmp', '/var/tmp', '/dev/shm'];

/**
 * Removes what `uid` left in the shared scratch folders (each entry it owns, with everything under
 * it). A uid goes from one instance to another, so the files one tenant's program left there must
 * be gone before the next tenant's runs under it. Entries that vanish meanwhile are no error.
 * @returns how many entries were removed.
 */
export async function removeScratchLeftovers(uid: number, dirs: readonly string[] = SHARED_SCRATCH_DIRS): Promise<number> {
  let removed = 0;
  for (const dir of dirs) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const path = join(dir, name);
      // lstat: a link the tenant left is judged by its own owner, never followed
      const owner = await lstat(path).then((s) => s.uid, () => -1);
      if (owner !== uid) continue;
      await rm(path, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}
