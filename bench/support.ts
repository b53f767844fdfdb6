import { execSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { prepareDatabase } from '../src/adapters/outbound/persistence/prepare-database.js';

/** A PostgreSQL for the benchmark: BENCH_DATABASE_URL / TEST_DATABASE_URL, else an embedded one. */
/**
 * `settings`: server settings of the embedded cluster (`-c name=value`; a given cluster keeps its own).
 * `prepare: false`: the database is left empty for a service that migrates it at its start (a
 * baseline built from an older commit: this build's migrations may be ahead of its own).
 */
export async function benchDatabase(opts: { prepare?: boolean; settings?: Record<string, string | number | boolean> } = {}): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  let admin: string | undefined = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  if (!admin) {
    const { startEmbeddedPostgres } = await import('../src/bootstrap/dev-infrastructure/embedded-postgres/embedded-postgres-server.js');
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-host-bench-pg-'));
    const h = await startEmbeddedPostgres({ dataDir, ...(opts.settings ? { settings: opts.settings } : {}) });
    admin = h.connectionString;
    // the benchmark's throwaway cluster goes with its data, so runs leave nothing in the temporary folder
    stop = async () => {
      await h.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const q = async (sql: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  await q(`CREATE DATABASE ${name}`);
  const u = new URL(admin!);
  u.pathname = `/${name}`;
  const url = u.toString();
  if (opts.prepare !== false) {
    const owner = new pg.Pool({ connectionString: url, max: 2 });
    await prepareDatabase(owner, url);
    await owner.end();
  }
  return { url, name, drop: async () => { await q(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`); await stop(); } };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** The service as `npm start` runs it: compiled and bundled (and stamped, see scripts/build.mjs) once per bench run, then plain node. */
export function buildService(): string {
  execSync('node scripts/build.mjs', { stdio: 'inherit' });
  // BENCH_PG_TRACE hooks the `pg` it requires from node_modules (bench/pg-trace.cjs): the bundle has
  // its own copy inlined, which no hook reaches, so a traced run starts tsc's unbundled output instead
  return process.env.BENCH_PG_TRACE ? 'dist/src/bootstrap/main.js' : 'dist/service/main.js';
}

/** Exactly what `npm start` runs (scripts/start.mjs: the build check, node's flags, then the compiled service), after one build. */
export function npmStartEntry(): string {
  buildService();
  return 'scripts/start.mjs';
}

/**
 * BENCH_BASELINE_REF=<commit>: the service as built from that commit, to measure in the same run,
 * round for round with this one (a quiet machine is rare; interleaved rounds share its load). The
 * commit's tree is exported to a temporary folder (git archive, not a worktree), given this
 * checkout's node_modules and built there once. Its entry, run with that folder as its working
 * directory; null without the variable. `remove()` deletes the folder.
 */
export function baselineService(): { entry: string; cwd: string; ref: string; remove(): void } | null {
  const ref = process.env.BENCH_BASELINE_REF;
  if (!ref) return null;
  const dir = mkdtempSync(join(tmpdir(), 'agent-host-bench-baseline-'));
  // readable by the agent-host programs, which run under uids of their own
  chmodSync(dir, 0o755);
  execSync(`git archive ${JSON.stringify(ref)} | tar -x -C ${JSON.stringify(dir)}`, { stdio: 'inherit', shell: '/bin/bash' });
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  execSync('node scripts/build.mjs', { cwd: dir, stdio: 'inherit' });
  // the bundle, as this build runs (buildService), unless BENCH_PG_TRACE needs node_modules' pg in both
  const entry = process.env.BENCH_PG_TRACE || !existsSync(join(dir, 'dist/service/main.js')) ? 'dist/src/bootstrap/main.js' : 'dist/service/main.js';
  return { entry: join(dir, entry), cwd: dir, ref, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The node flags `npm start` runs with (package.json's start script, decision 0371): the bench runs the service as it runs. */
export const START_NODE_FLAGS: string[] = (
  (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start.match(/\bnode\s+(.*?)\s*scripts\/start\.mjs/)?.[1] ?? ''
).split(/\s+/).filter(Boolean);

/**
 * Starts an entry (TypeScript through tsx, or built JavaScript) in a child process; resolves when it
 * listens on `port`. `cwd`: its working directory (a baseline's folder); `extraNodeFlags`: node flags
 * for this process alone (a variant measured beside the service in the same run).
 */
export async function startProcess(entry: string, env: Record<string, string>, port: number, cwd?: string, extraNodeFlags: readonly string[] = []): Promise<ChildProcess> {
  const execArgv = entry.endsWith('.ts') ? ['--import', 'tsx'] : entry === 'scripts/start.mjs' ? [...START_NODE_FLAGS] : [];
  execArgv.push(...extraNodeFlags);
  // BENCH_SERVICE_NODE_FLAGS="--no-allocation-site-pretenuring": node flags for the service only (not
  // the baselines), to compare a V8 setting run against run
  if (process.env.BENCH_SERVICE_NODE_FLAGS && (entry === 'scripts/start.mjs' || entry.startsWith('dist/'))) execArgv.push(...process.env.BENCH_SERVICE_NODE_FLAGS.split(/\s+/).filter(Boolean));
  // BENCH_CPU_PROF_DIR=/some/dir: each started process writes a V8 CPU profile there when it stops
  // (NODE_OPTIONS refuses --cpu-prof).
  if (process.env.BENCH_CPU_PROF_DIR) execArgv.push('--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`);
  // BENCH_PG_TRACE=/some/file: count the statements sent and requests served (bench/pg-trace.cjs, see pgTrace)
  if (process.env.BENCH_PG_TRACE) execArgv.push('--require', resolve('bench/pg-trace.cjs'));
  const child = fork(entry, [], { execArgv, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'], ...(cwd ? { cwd } : {}) });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/health`).then(() => true, () => false);
    if (up) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${entry} did not start`);
}

/** What every benchmark gives the service: its database, production mode, quiet logs, fixed secrets, and its address as APP_URL. */
export const benchServiceEnv = (databaseUrl: string, port: number, role: 'api' | 'all'): Record<string, string> => ({
  DATABASE_URL: databaseUrl, NODE_ENV: 'production', LOG_LEVEL: 'warn', SERVICE_ROLE: role,
  JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-bench', COOKIE_SECRET: 'bench-cookie-secret-bench-cookie-secret',
  ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), HOST: '127.0.0.1', APP_URL: `http://127.0.0.1:${port}`,
});

/** The service (`entry`) on a free port with benchServiceEnv and `env`; resolves once it listens. */
export async function startBenchService(entry: string, databaseUrl: string, role: 'api' | 'all', env: Record<string, string> = {}): Promise<{ child: ChildProcess; port: number; base: string }> {
  const port = await freePort();
  const child = await startProcess(entry, { ...benchServiceEnv(databaseUrl, port, role), ...env }, port);
  return { child, port, base: `http://127.0.0.1:${port}` };
}

/** What the agent benchmarks add: the process runtime under the service's own user, agents answering through the fake provider, no rate limit in the way. */
export const agentBenchEnv = (apiKey: string, providerBase: string): Record<string, string> => ({
  RUNTIME_RUN_AS_USER: '', OPENROUTER_API_KEY: apiKey, OPENROUTER_BASE_URL: providerBase,
  RATE_LIMIT_AUTH: '100000000', RATE_LIMIT_CHAT: '100000000', RATE_LIMIT_AGENTS: '100000000', RATE_LIMIT_INSTANCE: '100000000', RATE_LIMIT_GATEWAY: '100000000',
  AGENT_REPLY_TIMEOUT_MS: '20000',
});

/** The fake provider (bench/fake-ai-provider.ts, OpenAI wire format, `apiKey` required) in a child process; resolves once it listens. */
export async function startFakeProvider(apiKey: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = fork('bench/fake-ai-provider.ts', [], { execArgv: ['--import', 'tsx'], env: { ...process.env, FAKE_API_KEY: apiKey }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { baseUrl: string }).baseUrl));
    child.once('exit', (code) => reject(new Error(`fake provider exited with ${code}`)));
  });
  return { child, baseUrl };
}

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function load(url: string, headers: Record<string, string>, opts: { connections: number; seconds: number; method?: string; body?: string }): Promise<Sample> {
  const r = await autocannon({ url, headers, connections: opts.connections, duration: opts.seconds, method: (opts.method ?? 'GET') as 'GET', body: opts.body });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/**
 * Like `load`, but each request takes the next of `variants` (headers merged over `headers`), so
 * the requests spread over many users; `amount` sends exactly that many instead of running `ms`.
 * The rate is completed requests over the measured duration (autocannon's per-second average is
 * coarse for short rounds).
 */
export async function loadSpread(url: string, variants: Record<string, string>[], opts: { connections: number; ms?: number; amount?: number }): Promise<Sample & { count: number }> {
  let next = 0;
  const r = await autocannon({
    url, connections: opts.connections,
    ...(opts.amount ? { amount: opts.amount } : { duration: (opts.ms ?? 5000) / 1000 }),
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...variants[next++ % variants.length] } }) }],
  });
  const count = r.requests.total;
  return { rps: count / r.duration, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx, count };
}

/**
 * CPU time (user + system) a process has used, in ms, from /proc (Linux; NaN elsewhere). Divided by
 * the requests served in between it gives CPU per request, which other load on the machine moves
 * far less than throughput.
 */
export function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks, USER_HZ = 100
  } catch {
    return Number.NaN;
  }
}

/** The parent of a process, or -1 when it is gone. */
export function ppid(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
}

/** Every process below `root`, in pid order. */
export function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const d of readdirSync('/proc')) if (/^\d+$/.test(d)) parents.set(Number(d), ppid(Number(d)));
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [pid, parent] of parents) if (parent === p) { out.push(pid); walk(pid); }
  };
  walk(root);
  return out.sort((a, b) => a - b);
}

/** CPU time (ms) of every process below `root` (an agent runtime's hosts, say), as they are now. */
export function childrenCpuMs(root: number | undefined): number {
  return root === undefined ? Number.NaN : descendants(root).reduce((total, pid) => total + (processCpuMs(pid) || 0), 0);
}

/** The machine's CPU time so far, busy and in all (ms, from /proc/stat's first line; iowait counts as idle). */
export function machineCpuMs(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = f[3]! + f[4]!;
  return { busy: ((total - idle) * 1000) / 100, total: (total * 1000) / 100 };
}

/** SIGTERM, then waits for the exit (SIGKILL after `ms`). */
export async function stopProcess(child: ChildProcess, ms = 20_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  await exited;
  clearTimeout(timer);
}

/** Runs `fn` over `items`, `limit` at a time. */
export async function inBatches<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let i = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (i < items.length) {
      const k = i++;
      out[k] = await fn(items[k]!, k);
    }
  }));
  return out;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * With BENCH_PG_TRACE set: clears a started process's statement and request counts (`reset`), and
 * after a window prints the PostgreSQL statements it sent per request served (`report`). Without
 * it, both do nothing.
 */
interface Trace {
  pid: number;
  requests: Record<string, number>;
  statements: { statement: string; n: number; medianMs: number | null }[];
  timelines: Record<string, { requests: number; shape: string; shareOfShape: number; totalUs: number; parts: { segment: string; us: number }[] }>;
}

export function pgTrace(child: ChildProcess) {
  const file = process.env.BENCH_PG_TRACE;
  return {
    reset() {
      if (file) child.kill('SIGUSR2');
    },
    async report(title: string, path: string) {
      if (!file) return;
      const before = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
      child.kill('SIGUSR1');
      for (let i = 0; i < 100; i++) {
        // complete lines only: the last one may still be being written
        const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(0, -1).filter(Boolean) : [];
        const mine = lines.slice(before).map((l) => JSON.parse(l) as Trace).find((l) => l.pid === child.pid);
        if (mine) {
          const served = Object.entries(mine.requests).filter(([k]) => k.endsWith(` ${path}`)).reduce((a, [, n]) => a + n, 0);
          const total = mine.statements.reduce((a, s) => a + s.n, 0);
          console.log(`  ${title}: ${served} x ${path}, ${total} statements, ${(total / Math.max(1, served)).toFixed(2)} per request`);
          for (const s of mine.statements) console.log(`    ${(s.n / Math.max(1, served)).toFixed(2)}/req  median ${s.medianMs?.toFixed(3) ?? '-'} ms  ${s.statement}`);
          const tl = Object.entries(mine.timelines).find(([k]) => k.endsWith(` ${path}`))?.[1];
          if (tl) {
            console.log(`    in the server (arrival to response end), median ${tl.totalUs} µs; the commonest sequence (${(tl.shareOfShape * 100).toFixed(0)}% of ${tl.requests}), medians per segment:`);
            for (const p of tl.parts) console.log(`      ${String(p.us).padStart(6)} µs  ${p.segment}`);
          }
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/**
 * The CPU (user + system, ms, from /proc/<pid>/stat) of the PostgreSQL backends connected to some
 * databases: what a path costs PostgreSQL, beside the service's own process. The backends are
 * listed by `pg_stat_activity` (datname), this monitor's own excluded; a backend that starts
 * during a window counts from zero, one that ends is lost (the services' pools keep theirs). Only
 * one path runs at a time in the benches, so a database's backends are that path's (its service's
 * background work included: pg-boss, the command poll). Reading another user's /proc/<pid>/stat is
 * allowed; PostgreSQL must run on this machine (a remote one reads NaN).
 */
export class PgBackendCpu {
  /** One monitoring connection per database watched (each bench database may be its own embedded cluster). */
  private readonly clients = new Map<string, pg.Client>();

  private constructor() {}

  static async open(...databaseUrls: string[]): Promise<PgBackendCpu> {
    const m = new PgBackendCpu();
    for (const url of databaseUrls) await m.add(url);
    return m;
  }

  /** Watches one more database (by its URL: its cluster may be another one). */
  async add(databaseUrl: string): Promise<void> {
    const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
    if (this.clients.has(name)) return;
    const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench_cpu_monitor' });
    await client.connect();
    this.clients.set(name, client);
  }

  /** CPU ms per backend pid of `databases`, now. */
  async snapshot(databases: readonly string[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const db of databases) {
      const client = this.clients.get(db);
      if (!client) throw new Error(`PgBackendCpu: database ${db} is not watched`);
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
        [db],
      );
      for (const r of rows) out.set(r.pid, processCpuMs(r.pid));
    }
    return out;
  }

  /** The backends' CPU (ms) used since `before`, a snapshot of the same databases. */
  async since(before: Map<number, number>, databases: readonly string[]): Promise<number> {
    const after = await this.snapshot(databases);
    let ms = 0;
    for (const [pid, cpu] of after) if (Number.isFinite(cpu)) ms += cpu - (before.get(pid) ?? 0);
    return ms;
  }

  async close(): Promise<void> {
    for (const c of this.clients.values()) await c.end();
    this.clients.clear();
  }
}

/** CPU per request of one measured window: the service's process and the PostgreSQL backends, µs. */
export interface CpuPerRequest { serviceUs: number; pgUs: number }

/**
 * Measures `fn`'s window: the CPU of `pid` and of the backends of `databases`, per request served
 * (`fn` returns how many).
 */
export async function cpuPerRequest<T extends { count: number }>(pid: number | undefined, monitor: PgBackendCpu | undefined, databases: readonly string[], fn: () => Promise<T>): Promise<T & CpuPerRequest> {
  const pg0 = monitor ? await monitor.snapshot(databases) : undefined;
  const cpu0 = processCpuMs(pid);
  const r = await fn();
  const serviceMs = processCpuMs(pid) - cpu0;
  const pgMs = monitor && pg0 ? await monitor.since(pg0, databases) : Number.NaN;
  const n = Math.max(1, r.count);
  return { ...r, serviceUs: (serviceMs * 1000) / n, pgUs: (pgMs * 1000) / n };
}

/**
 * The bare baseline (bench/bare-baseline.mjs: plain node, Fastify + pg, pool of 10, one primary-key
 * SELECT of 5 columns over 200 rows) on `databaseUrl`, its table made there; `round(ms)` loads it
 * with 50 connections spread over the 200 ids and returns req/s and its CPU per request (its process,
 * its backends). Every bench that prints CPU ratios measures it in its own rounds, so a ratio's two
 * sides share the machine's load.
 */
export async function startBareBaseline(databaseUrl: string, databaseName: string, monitor: PgBackendCpu | undefined, table = 'bench_bare_users') {
  const owner = new pg.Client({ connectionString: databaseUrl });
  await owner.connect();
  const ids = Array.from({ length: 200 }, () => randomUUID());
  try {
    await owner.query(`CREATE TABLE IF NOT EXISTS ${table} (id uuid PRIMARY KEY, email text NOT NULL, name text, plan text NOT NULL, credits bigint NOT NULL)`);
    await owner.query(`TRUNCATE ${table}`);
    await owner.query(
      `INSERT INTO ${table} SELECT id, 'bare-' || n || '@example.test', 'Bare ' || n, 'free', 1000 FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, n)`,
      [ids],
    );
    await owner.query(`ANALYZE ${table}`);
  } finally {
    await owner.end();
  }
  const port = await freePort();
  // its own application_name: its backends are told apart from the service's in the same database
  const u = new URL(databaseUrl);
  u.searchParams.set('application_name', 'bench_bare');
  const server = await startProcess('bench/bare-baseline.mjs', { DATABASE_URL: u.toString(), BENCH_BARE_TABLE: table }, port);
  const url = `http://127.0.0.1:${port}/api/settings`;
  const variants = ids.map((id) => ({ 'x-user-id': id }));
  await loadSpread(url, variants, { connections: 50, ms: 1000 });
  return {
    server,
    url,
    variants,
    async round(ms: number): Promise<Sample & { count: number } & CpuPerRequest> {
      return cpuPerRequest(server.pid, monitor, [databaseName], () => loadSpread(url, variants, { connections: 50, ms }));
    },
    /**
     * The same read one request at a time on one keep-alive connection, as the chat paths are
     * measured (c=1): each request pays its own wake-ups, which a loaded machine makes dear, so its
     * CPU per request is the like-for-like reference for a c=1 path's.
     */
    async sequentialRound(ms: number): Promise<{ count: number } & CpuPerRequest> {
      return cpuPerRequest(server.pid, monitor, [databaseName], () => sequentialGets(url, variants, ms));
    },
    stop: () => stopProcess(server, 5000),
  };
}

/** `x` over `base`, as "12.3x" (or "-" when either is not a number). */
export const ratio = (x: number, base: number): string => (Number.isFinite(x) && Number.isFinite(base) && base > 0 ? `${(x / base).toFixed(1)}x` : '-');

/** A CPU figure with its ratio to the bare baseline's: "1,188 µs (31.3x)". */
export const cpuFig = (us: number, bareUs: number): string => `${Number.isFinite(us) ? Math.round(us).toLocaleString('en-US') : '-'} µs (${ratio(us, bareUs)})`;

/** GETs one after another on one keep-alive connection for `ms`, each with the next of `variants`' headers. */
async function sequentialGets(url: string, variants: Record<string, string>[], ms: number): Promise<{ count: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let count = 0;
  const until = performance.now() + ms;
  try {
    while (performance.now() < until) {
      await new Promise<void>((resolve, reject) => {
        const req = http.request(url, { agent, headers: variants[count % variants.length] }, (res) => {
          res.on('data', () => undefined);
          res.on('end', () => resolve());
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
      count++;
    }
  } finally {
    agent.destroy();
  }
  return { count };
}
