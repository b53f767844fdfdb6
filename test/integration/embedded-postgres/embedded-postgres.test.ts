import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../../../src/bootstrap/dev-infrastructure/embedded-postgres/embedded-postgres-server.js';
import { PENDING_PASSWORD_FILE } from '../../../src/bootstrap/dev-infrastructure/embedded-postgres/cluster-template.js';

const execFileP = promisify(execFile);

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const childScript = join(here, 'fixtures', 'embedded-postgres-child.ts');
const isRoot = process.getuid?.() === 0;

const tempDirs: string[] = [];
const handles: EmbeddedPostgresHandle[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.allSettled(handles.map((h) => h.stop()));
  await Promise.allSettled(tempDirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** Under os.tmpdir(), which the `postgres` OS user can traverse when we are root. */
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'embedded-pg-test-'));
  tempDirs.push(d);
  return d;
}

async function start(dataDir: string, extra: { port?: number; log?: (m: string) => void; launched?: () => void; settings?: Record<string, string | number | boolean>; templates?: string } = {}) {
  const t0 = performance.now();
  const h = await startEmbeddedPostgres({ dataDir, ...extra });
  handles.push(h);
  return { h, ms: Math.round(performance.now() - t0) };
}

async function query(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** The error code a connection with this password gets ('' when it is let in). */
async function connectError(port: number, password: string): Promise<string> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', password });
  try {
    await client.connect();
    await client.end();
    return '';
  } catch (err) {
    return String((err as { code?: string }).code ?? (err as Error).message);
  }
}

/**
 * What the server answers a StartupMessage sent with no password at all (as psql or a raw client
 * would): the authentication request code, 0 = AuthenticationOk (let in), 10 = SASL (password asked).
 */
function authRequestWithoutPassword(port: number): Promise<number> {
  return new Promise((res, rej) => {
    const params = Buffer.from('user\0postgres\0database\0postgres\0\0');
    const msg = Buffer.alloc(8 + params.length);
    msg.writeInt32BE(msg.length, 0);
    msg.writeInt32BE(196608, 4); // protocol 3.0
    params.copy(msg, 8);
    const sock = connect(port, '127.0.0.1', () => sock.write(msg));
    let buf = Buffer.alloc(0);
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length < 9) return;
      sock.destroy();
      if (buf[0] !== 0x52) return rej(new Error(`expected an authentication request, got ${String.fromCharCode(buf[0]!)}`));
      res(buf.readInt32BE(5));
    });
    sock.once('error', rej);
  });
}

async function passwordFileOf(dataDir: string) {
  const file = join(dataDir, 'superuser.password');
  const s = await stat(file);
  return { password: (await readFile(file, 'utf8')).trim(), mode: s.mode & 0o777, uid: s.uid };
}

/** What a data directory made before passwords held: pg_hba.conf of that time, no password file. */
const TRUST_HBA = `# Written by embedded-postgres-server.ts. Loopback TCP only, no password: a local
# development/test server. There is no Unix socket (unix_socket_directories is empty).
# TYPE  DATABASE  USER  ADDRESS        METHOD
host    all       all   127.0.0.1/32   trust
`;

/** Resolves when 127.0.0.1:port can be bound (the server let go of it). */
function canListen(port: number): Promise<boolean> {
  return new Promise((res) => {
    const srv = createServer();
    srv.once('error', () => res(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => res(true)));
  });
}

/** Alive and not a zombie (a killed orphan may linger as one under a PID 1 that does not reap). */
function alive(pid: number): boolean {
  if (!existsSync('/proc/self/stat')) {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

async function postmasterPid(dataDir: string): Promise<number> {
  return Number((await readFile(join(dataDir, 'pgdata', 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

/** Runs the fixture in a child process (tsx); resolves with the first JSON line it prints. */
function runChild(mode: 'hold' | 'roundtrip', dataDir: string, as?: { uid: number; gid: number }) {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, mode, dataDir], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOME: tmpdir() },
    ...(as ?? {}),
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const firstLine = new Promise<Record<string, unknown>>((res, rej) => {
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl >= 0) res(JSON.parse(out.slice(0, nl)) as Record<string, unknown>);
    });
    child.once('exit', (code) => rej(new Error(`child exited (${code}) before printing:\n${err}`)));
  });
  return { child, firstLine };
}

describe('startEmbeddedPostgres', () => {
  it('initialises a fresh directory, keeps data across a restart, and stop() frees the port', async () => {
    const dir = await tempDir();
    const first = await start(dir);
    const { password } = await passwordFileOf(dir);
    expect(first.h.connectionString).toBe(`postgresql://postgres:${password}@127.0.0.1:${first.h.port}/postgres`);
    expect(existsSync(join(dir, 'pgdata', 'PG_VERSION'))).toBe(true);
    await query(first.h.connectionString, "CREATE TABLE notes (body text); INSERT INTO notes VALUES ('hello')");
    const settings = await query(
      first.h.connectionString,
      "SELECT current_setting('listen_addresses') AS listen, current_setting('unix_socket_directories') AS sockets",
    );
    expect(settings.rows[0]).toEqual({ listen: '127.0.0.1', sockets: '' });

    await first.h.stop();
    await first.h.stop(); // idempotent
    expect(await canListen(first.h.port)).toBe(true);
    expect(existsSync(join(dir, 'pgdata', 'postmaster.pid'))).toBe(false);

    const logs: string[] = [];
    const warm = await start(dir, { log: (m) => logs.push(m) });
    expect(logs.some((l) => l.startsWith('existing cluster'))).toBe(true);
    expect(logs.some((l) => l.startsWith('initdb:'))).toBe(false);
    const r = await query(warm.h.connectionString, 'SELECT body FROM notes');
    expect(r.rows).toEqual([{ body: 'hello' }]);
    await warm.h.stop();
    expect(await canListen(warm.h.port)).toBe(true);
    console.info(`[embedded-postgres] first boot (initdb + start): ${first.ms} ms; warm boot: ${warm.ms} ms`);
  });

  it('says when its long step runs in another process, and flushes a new cluster to disk beside the start, which stop() waits for', async () => {
    const dir = await tempDir();
    const logs: string[] = [];
    const told: string[] = [];
    // told while initdb runs: its output comes later
    const first = await start(dir, { log: (m) => logs.push(m), launched: () => told.push(`after ${logs.filter((l) => l.startsWith('initdb:')).length} initdb lines`) });
    expect(told).toEqual(['after 0 initdb lines']);
    await first.h.stop();
    expect(logs.filter((l) => l.startsWith('new cluster flushed to disk'))).toHaveLength(1);
    expect(logs.indexOf(logs.find((l) => l.startsWith('new cluster flushed to disk'))!)).toBeLessThan(logs.indexOf('stopped'));

    // an existing cluster: told once the server runs; nothing to flush
    logs.length = 0;
    told.length = 0;
    const again = await start(dir, { log: (m) => logs.push(m), launched: () => told.push('told') });
    expect(told).toEqual(['told']);
    await again.h.stop();
    expect(logs.some((l) => l.startsWith('new cluster flushed'))).toBe(false);

    // a server run with fsync off (throwaway data): a new cluster is not flushed either
    const other = await tempDir();
    logs.length = 0;
    const unsynced = await start(other, { log: (m) => logs.push(m), settings: { fsync: false } });
    await unsynced.h.stop();
    expect(logs.some((l) => l.startsWith('initdb:'))).toBe(true);
    expect(logs.some((l) => l.startsWith('new cluster flushed'))).toBe(false);
  });

  it('asks every connection for the superuser password, kept in a 0600 file of the service user', async () => {
    const dir = await tempDir();
    const { h } = await start(dir);
    // Any local process reaches the port: without the password it is asked for one, and refused.
    expect(await authRequestWithoutPassword(h.port)).toBe(10);
    expect(await connectError(h.port, 'not-the-password')).toBe('28P01');

    const file = await passwordFileOf(dir);
    expect(file.mode).toBe(0o600);
    expect(file.uid).toBe(process.getuid?.());
    expect(file.password).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(join(dir, 'pgdata.pwfile-tmp'))).toBe(false); // initdb's copy is gone
    expect(await connectError(h.port, file.password)).toBe('');
    const rules = await query(h.connectionString, 'SELECT DISTINCT auth_method, error FROM pg_hba_file_rules');
    expect(rules.rows).toEqual([{ auth_method: 'scram-sha-256', error: null }]);
    // The app roles are reached through the owner connection's role switch, as the pools do.
    const asApp = new pg.Client({ connectionString: h.connectionString, options: '-c role=app_system' });
    await query(h.connectionString, 'CREATE ROLE app_system NOLOGIN');
    await asApp.connect();
    expect((await asApp.query('SELECT current_user AS who')).rows).toEqual([{ who: 'app_system' }]);
    await asApp.end();
    await h.stop();
  });

  it('gives a cluster made with trust (before passwords) a password at its next start, data intact', async () => {
    const dir = await tempDir();
    const made = await start(dir);
    await query(made.h.connectionString, "CREATE TABLE notes (body text); INSERT INTO notes VALUES ('from the trust era')");
    // Back to what an older version left: no password on the role, pg_hba.conf trusting 127.0.0.1, no file.
    await query(made.h.connectionString, 'ALTER ROLE postgres PASSWORD NULL');
    await made.h.stop();
    await writeFile(join(dir, 'pgdata', 'pg_hba.conf'), TRUST_HBA);
    await rm(join(dir, 'superuser.password'));

    const logs: string[] = [];
    const upgraded = await start(dir, { log: (m) => logs.push(m) });
    expect(logs.some((l) => l.startsWith('password authentication set up'))).toBe(true);
    const file = await passwordFileOf(dir);
    expect(file.mode).toBe(0o600);
    expect(upgraded.h.connectionString).toContain(`postgres:${file.password}@`);
    expect(await authRequestWithoutPassword(upgraded.h.port)).toBe(10);
    expect(await connectError(upgraded.h.port, 'not-the-password')).toBe('28P01');
    expect((await query(upgraded.h.connectionString, 'SELECT body FROM notes')).rows).toEqual([{ body: 'from the trust era' }]);
    expect(await readFile(join(dir, 'pgdata', 'pg_hba.conf'), 'utf8')).toMatch(/127\.0\.0\.1\/32\s+scram-sha-256\n$/);
    await upgraded.h.stop();

    // A crash after the file was written but before pg_hba.conf was: the next start finishes with that password.
    await writeFile(join(dir, 'pgdata', 'pg_hba.conf'), TRUST_HBA);
    const finished = await start(dir);
    expect((await passwordFileOf(dir)).password).toBe(file.password);
    expect(await authRequestWithoutPassword(finished.h.port)).toBe(10);
    expect((await query(finished.h.connectionString, 'SELECT body FROM notes')).rows).toEqual([{ body: 'from the trust era' }]);
    await finished.h.stop();
  });

  it('stops the server of a killed process at the next start, and refuses while that process lives', async () => {
    const dir = await tempDir();
    const { child, firstLine } = runChild('hold', dir);
    const info = (await firstLine) as { port: number; connectionString: string };
    await query(info.connectionString, "CREATE TABLE notes (body text); INSERT INTO notes VALUES ('from the child')");
    const orphan = await postmasterPid(dir);

    await expect(startEmbeddedPostgres({ dataDir: dir })).rejects.toThrow(/in use by a server that the live process/);

    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(alive(orphan)).toBe(true); // the detached server outlived its process: the stale state

    const logs: string[] = [];
    const next = await start(dir, { log: (m) => logs.push(m) });
    expect(logs.some((l) => l.includes('still running'))).toBe(true);
    expect(alive(orphan)).toBe(false);
    const r = await query(next.h.connectionString, 'SELECT body FROM notes');
    expect(r.rows).toEqual([{ body: 'from the child' }]);
    await next.h.stop();
    expect(await canListen(info.port)).toBe(true);
  });

  it('recovers after the postmaster itself was SIGKILLed (stale postmaster.pid)', async () => {
    const dir = await tempDir();
    const port = await new Promise<number>((res) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => res(p));
      });
    });
    const { h } = await start(dir, { port });
    expect(h.port).toBe(port);
    await query(h.connectionString, "CREATE TABLE notes (body text); INSERT INTO notes VALUES ('committed')");
    const pid = await postmasterPid(dir);
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => alive(pid), { timeout: 5_000, interval: 20 }).toBe(false);
    expect(existsSync(join(dir, 'pgdata', 'postmaster.pid'))).toBe(true);
    await h.stop(); // the server is already gone: resolves at once

    const logs: string[] = [];
    const next = await start(dir, { port, log: (m) => logs.push(m) });
    expect(logs.some((l) => l.includes('stale postmaster.pid') || l.includes('stray server processes'))).toBe(true);
    const r = await query(next.h.connectionString, 'SELECT body FROM notes');
    expect(r.rows).toEqual([{ body: 'committed' }]);
    await next.h.stop();
  });

  it('leaves alone a live process whose pid a stale postmaster.pid names', async () => {
    const dir = await tempDir();
    const { h } = await start(dir);
    await h.stop();
    const bystander = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push(bystander);
    const pidFile = join(dir, 'pgdata', 'postmaster.pid');
    await writeFile(pidFile, `${bystander.pid}\n${join(dir, 'pgdata')}\n0\n5432\n\n127.0.0.1\n0 0\nready   \n`);

    const next = await start(dir);
    expect(alive(bystander.pid!)).toBe(true);
    expect(Number((await readFile(pidFile, 'utf8')).split('\n')[0])).not.toBe(bystander.pid);
    await next.h.stop();
    bystander.kill('SIGKILL');
  });

  // Skipped unless root: only root runs PostgreSQL as the separate `postgres` OS user whose reach is checked.
  it.skipIf(!isRoot)('as root, fails clearly when the postgres OS user cannot reach the data directory', async () => {
    const locked = await tempDir(); // mkdtemp: 0700, owned by root
    await chmod(locked, 0o700);
    await expect(startEmbeddedPostgres({ dataDir: join(locked, 'inner', 'pg') })).rejects.toThrow(
      /OS user 'postgres'.*cannot enter '.*embedded-pg-test-[^']+' \(mode 0700/,
    );
    expect(existsSync(join(locked, 'inner'))).toBe(false); // nothing made before the check
  });

  // Skipped unless root: it drops to a non-root uid (setuid), which only root may do.
  it.skipIf(!isRoot)('works for a non-root user (no OS user, server runs as that user)', async () => {
    const dir = await tempDir();
    const data = join(dir, 'data');
    await mkdir(data);
    await chown(data, 65534, 65534); // nobody:nogroup
    await chmod(dir, 0o755);
    const { firstLine } = runChild('roundtrip', data, { uid: 65534, gid: 65534 });
    const result = await firstLine;
    expect(result).toEqual({ uid: 65534, rows: [{ v: 'kept', who: 'postgres' }] });
  });
});

describe('cluster templates (a new cluster copied from one an earlier initdb made)', () => {
  const pendingFile = (dataDir: string) => join(dataDir, 'pgdata', PENDING_PASSWORD_FILE);
  const templateOf = async (root: string) => {
    const names = existsSync(root) ? (await readdir(root)).filter((n) => !n.includes('.tmp-')) : [];
    return names.length === 1 ? join(root, names[0]!) : null;
  };

  it('keeps the first new cluster as a template, copies the next from it, and no two clusters share a password', async () => {
    const root = join(await tempDir(), 'templates');
    const firstDir = await tempDir();
    const logs: string[] = [];
    const first = await start(firstDir, { templates: root, log: (m) => logs.push(m) });
    expect(logs.some((l) => l.startsWith('initialised a new cluster'))).toBe(true);
    await first.h.stop(); // waits for the template to be flushed and published
    const template = await templateOf(root);
    expect(template).not.toBeNull();
    expect(existsSync(join(template!, 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(template!, 'postmaster.pid'))).toBe(false); // copied before the server ran
    const throwaway = (await readFile(join(template!, PENDING_PASSWORD_FILE), 'utf8')).trim();

    // the second: a copy (no initdb), which answers to its own password and no longer to the template's
    const secondDir = await tempDir();
    logs.length = 0;
    const second = await start(secondDir, { templates: root, log: (m) => logs.push(m) });
    expect(logs.some((l) => l.startsWith('copied a new cluster from the template'))).toBe(true);
    expect(logs.some((l) => l.startsWith('initialised a new cluster'))).toBe(false);
    const own = (await passwordFileOf(secondDir)).password;
    expect(await connectError(second.h.port, own)).toBe('');
    expect(await connectError(second.h.port, throwaway)).toBe('28P01');
    expect(existsSync(pendingFile(secondDir))).toBe(false);
    expect(own).not.toBe((await passwordFileOf(firstDir)).password);
    await query(second.h.connectionString, 'CREATE TABLE kept (v text)');
    await second.h.stop();

    // the template is untouched by the copy's use, and the first cluster took its own password too
    expect(existsSync(join(template!, 'base'))).toBe(true);
    const again = await start(firstDir, { templates: root });
    expect(await connectError(again.h.port, throwaway)).toBe('28P01');
    expect((await query(again.h.connectionString, "SELECT to_regclass('kept') AS t")).rows).toEqual([{ t: null }]);
    await again.h.stop();
  });

  it('finishes the password change at the next start when the first start died before it', async () => {
    const root = join(await tempDir(), 'templates');
    const seed = await start(await tempDir(), { templates: root });
    await seed.h.stop();
    const template = (await templateOf(root))!;
    // what a start killed between the copy and the change leaves: the copied cluster, its throwaway password
    const dir = await tempDir();
    await mkdir(join(dir, 'pgdata'), { recursive: true });
    await rm(join(dir, 'pgdata'), { recursive: true });
    await execFileP('cp', ['-a', template, join(dir, 'pgdata')]);
    await writeFile(join(dir, 'superuser.password'), `${'ab'.repeat(32)}\n`, { mode: 0o600 });
    const { h } = await start(dir, { templates: root });
    expect(await connectError(h.port, 'ab'.repeat(32))).toBe('');
    expect(existsSync(pendingFile(dir))).toBe(false);
    await h.stop();
  });

  it('runs initdb when the template is not whole or cannot be copied, and says so', async () => {
    const root = join(await tempDir(), 'templates');
    const seed = await start(await tempDir(), { templates: root });
    await seed.h.stop();
    const template = (await templateOf(root))!;
    await rm(join(template, PENDING_PASSWORD_FILE)); // not a template this version made whole
    const logs: string[] = [];
    const dir = await tempDir();
    const { h } = await start(dir, { templates: root, log: (m) => logs.push(m) });
    expect(logs.some((l) => l.startsWith('initialised a new cluster'))).toBe(true);
    expect(await connectError(h.port, (await passwordFileOf(dir)).password)).toBe('');
    await h.stop();
  });
});
