import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chownTree, type PostgresOsUser } from './postgres-os-user.js';
import { captureLines } from '../../../adapters/outbound/system/child-output.js';
import { childEnv, CLUSTER_SUBDIR, SUPERUSER } from './embedded-shared.js';
import { newPendingPassword, writePendingPassword } from './cluster-template.js';

/**
 * Finding the binaries and making or adopting a cluster directory.
 *
 * pg_hba.conf: loopback TCP only, and a password for every connection. Any local process can reach
 * 127.0.0.1 (an agent host under its own uid included), so the port alone proves nothing.
 */
export const PG_HBA = `# Written by embedded-postgres-server.ts. Loopback TCP only, the superuser's password
# (scram-sha-256) for every connection. There is no Unix socket (unix_socket_directories is empty).
# TYPE  DATABASE  USER  ADDRESS        METHOD
host    all       all   127.0.0.1/32   scram-sha-256
`;

/** What a cluster is made with: the same options make the same cluster (cluster-template.ts keys on them). */
export const CLUSTER_OPTIONS: readonly string[] = [
  `--username=${SUPERUSER}`,
  '--auth=scram-sha-256', // pg_hba.conf is replaced by initCluster
  '--encoding=UTF8',
  // Code-point order and Unicode case mapping (citext, lower()), independent of OS locales.
  '--locale=C',
  '--locale-provider=builtin',
  '--builtin-locale=C.UTF-8',
];

export interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

export async function loadBinaries(): Promise<PostgresBinaries> {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const pkg = `@embedded-postgres/${os}-${process.arch}`;
  let mod: Partial<PostgresBinaries>;
  try {
    mod = (await import(pkg)) as Partial<PostgresBinaries>;
  } catch (err) {
    throw new Error(`Embedded PostgreSQL: no binaries for this platform (${pkg}: ${(err as Error).message})`);
  }
  if (!mod.postgres || !mod.initdb) throw new Error(`Embedded PostgreSQL: ${pkg} does not export postgres/initdb paths`);
  return { postgres: mod.postgres, initdb: mod.initdb };
}


/** An existing cluster must belong to the server's user and be 0700/0750, or PostgreSQL refuses it. */
export async function prepareExistingCluster(clusterDir: string, user: PostgresOsUser | null): Promise<void> {
  const s = await stat(clusterDir);
  if (user && (s.uid !== user.uid || s.gid !== user.gid)) await chownTree(clusterDir, user.uid, user.gid);
  if ((s.mode & 0o027) !== 0) await chmod(clusterDir, 0o700);
}

/**
 * A new cluster in clusterDir, made in a temporary folder next to it and renamed into place once
 * complete. initdb runs with --no-sync: its closing flush of every file it wrote (some 40 MB) takes
 * from a tenth of a second to seconds on a busy disk, and a first start waits for nothing else as
 * long. The flush is the caller's to run once the server runs (syncCluster), off the start's path;
 * until it ends, an operating-system crash (not a crash of this process: the files are in the OS's
 * cache) can leave a cluster that looks complete and is not, which the server then refuses.
 */
export async function initCluster(
  initdb: string,
  dataDir: string,
  clusterDir: string,
  user: PostgresOsUser | null,
  log: (m: string) => void,
  timeoutMs: number,
  /** Told once initdb runs. */
  spawned?: () => void,
): Promise<void> {
  if (existsSync(clusterDir) && (await readdir(clusterDir)).length > 0) {
    throw new Error(`Embedded PostgreSQL: ${clusterDir} is not empty but holds no cluster (no PG_VERSION); move it away`);
  }
  const tmp = join(dataDir, `${CLUSTER_SUBDIR}.initdb-tmp`);
  await rm(tmp, { recursive: true, force: true }); // what a killed first boot left
  await mkdir(tmp, { mode: 0o700 });
  if (user) await chown(tmp, user.uid, user.gid);
  // The superuser gets a throwaway password, replaced by the cluster's own at its first start
  // (cluster-template.ts: the same cluster may become the template of others). initdb reads it from
  // a file (the server's user must read it; PGDATA must be empty), removed once initdb is done.
  const password = newPendingPassword();
  const pwfile = join(dataDir, `${CLUSTER_SUBDIR}.pwfile-tmp`);
  await rm(pwfile, { force: true });
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  if (user) await chown(pwfile, user.uid, user.gid);
  const args = [`--pgdata=${tmp}`, `--pwfile=${pwfile}`, ...CLUSTER_OPTIONS, '--no-instructions', '--no-sync' /* see above: syncCluster */];
  const { code, output } = await runInitdb(initdb, args, { cwd: tmp, user, log, timeoutMs, ...(spawned ? { spawned } : {}) }).finally(() => rm(pwfile, { force: true }));
  if (code !== 0) {
    await rm(tmp, { recursive: true, force: true });
    throw new Error(`Embedded PostgreSQL: initdb failed (${code}):\n${output}`);
  }
  await writeHba(tmp, PG_HBA, user);
  await writePendingPassword(tmp, password, user);
  // The cluster appears complete or not at all (after an operating-system crash: once synced).
  await rename(tmp, clusterDir);
}

/**
 * Flushes a cluster made by initCluster to disk (`initdb --sync-only`, which the running server
 * does not mind). Resolves with how it went rather than failing: the cluster is usable either way.
 */
export async function syncCluster(
  initdb: string,
  clusterDir: string,
  user: PostgresOsUser | null,
  log: (m: string) => void,
  timeoutMs: number,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    const { code, output } = await runInitdb(initdb, ['--sync-only', `--pgdata=${clusterDir}`], { cwd: clusterDir, user, log, timeoutMs });
    return code === 0 ? { ok: true } : { ok: false, reason: `initdb --sync-only exited with ${code}: ${output}` };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

async function runInitdb(
  initdb: string,
  args: string[],
  o: { cwd: string; user: PostgresOsUser | null; log: (m: string) => void; timeoutMs: number; spawned?: () => void },
): Promise<{ code: number | string; output: string }> {
  const child = spawn(initdb, args, { cwd: o.cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'], ...(o.user ? { uid: o.user.uid, gid: o.user.gid } : {}) });
  const output = captureLines(child, 'initdb', o.log);
  o.spawned?.();
  const code = await new Promise<number | string>((res, rej) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rej(new Error(`Embedded PostgreSQL: initdb took longer than ${o.timeoutMs} ms`));
    }, o.timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      rej(new Error(`Embedded PostgreSQL: cannot run initdb: ${err.message}`));
    });
    child.once('close', (c, sig) => {
      clearTimeout(timer);
      res(c ?? sig ?? 'unknown');
    });
  });
  return { code, output: output.tail() };
}

/** Replaces pg_hba.conf whole (write, then rename): a crash leaves the old file or the new one. */
export async function writeHba(clusterDir: string, content: string, user: PostgresOsUser | null): Promise<void> {
  const hba = join(clusterDir, 'pg_hba.conf');
  const tmp = `${hba}.tmp`;
  await rm(tmp, { force: true });
  await writeFile(tmp, content, { mode: 0o600 });
  if (user) await chown(tmp, user.uid, user.gid);
  await rename(tmp, hba);
}
