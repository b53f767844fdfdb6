import { execSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
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
export async function benchDatabase(opts: { prepare?: boolean; settings?: Record<string, string | number | boolean> } = {}): Promise<{ url: string; drop(): Promise<void> }> {
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
  return { url, drop: async () => { await q(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`); await stop(); } };
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
