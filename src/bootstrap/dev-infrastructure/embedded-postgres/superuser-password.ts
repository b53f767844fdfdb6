import { randomBytes } from 'node:crypto';
import { chmod, chown, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';

/**
 * The embedded cluster's superuser password, kept in one file next to the cluster: read and written
 * by the service's user only (0600, owned by it, as DATA_DIR/secrets.json is). Agent hosts run under
 * other uids when the service is root and must not reach it: whoever reads it owns every tenant's data.
 */
export const PASSWORD_FILE = 'superuser.password';

export interface StoredPassword {
  password: string;
  /** False when the file was absent and a new password was made (the cluster does not know it yet). */
  existed: boolean;
}

/** The stored password, or a new one written (atomically) when there is none. */
export async function readOrCreatePassword(file: string): Promise<StoredPassword> {
  const existing = await readFile(file, 'utf8').then(
    (s) => s.trim(),
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    },
  );
  if (existing) {
    await keepPrivate(file);
    return { password: existing, existed: true };
  }
  // Hex: nothing to escape in a URL, a pwfile or an SQL literal.
  const password = randomBytes(32).toString('hex');
  const tmp = `${file}.tmp`;
  await rm(tmp, { force: true });
  await writeFile(tmp, `${password}\n`, { mode: 0o600, flag: 'wx' });
  await keepPrivate(tmp);
  await rename(tmp, file);
  return { password, existed: false };
}

/**
 * 0600 and owned by the service's user, whatever the umask or an earlier copy left. Root takes a
 * copy another user owns; anyone else refuses it: whoever owns it chooses the password we send.
 */
async function keepPrivate(file: string): Promise<void> {
  const s = await stat(file);
  const me = process.getuid?.();
  if (me !== undefined && me !== 0 && s.uid !== me) {
    throw new Error(`Embedded PostgreSQL: ${file} belongs to uid ${s.uid}, not to this service's user (${me}); remove it or give it back`);
  }
  if (me === 0 && (s.uid !== 0 || s.gid !== 0)) await chown(file, 0, 0);
  if ((s.mode & 0o777) !== 0o600) await chmod(file, 0o600);
}
