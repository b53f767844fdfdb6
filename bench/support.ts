import { execSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { prepareDatabase } from '../src/adapters/outbound/persistence/prepare-database.js';

/** A PostgreSQL for the benchmark: BENCH_DATABASE_URL / TEST_DATABASE_URL, else an embedded one. */
export async function benchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  let admin: string | undefined = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  if (!admin) {
    const { startEmbeddedPostgres } = await import('../src/bootstrap/dev-infrastructure/embedded-postgres/embedded-postgres-server.js');
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-host-bench-pg-'));
    const h = await startEmbeddedPostgres({ dataDir });
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
  const owner = new pg.Pool({ connectionString: url, max: 2 });
  await prepareDatabase(owner, url);
  await owner.end();
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

/** The service as `npm start` runs it: compiled (and stamped, see scripts/build.mjs) once per bench run, then plain node. */
export function buildService(): string {
  execSync('node scripts/build.mjs', { stdio: 'inherit' });
  return 'dist/src/bootstrap/main.js';
}

/** Starts an entry (TypeScript through tsx, or built JavaScript) in a child process; resolves when it listens on `port`. */
export async function startProcess(entry: string, env: Record<string, string>, port: number): Promise<ChildProcess> {
  const execArgv = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  // BENCH_CPU_PROF_DIR=/some/dir: each started process writes a V8 CPU profile there when it stops
  // (NODE_OPTIONS refuses --cpu-prof).
  if (process.env.BENCH_CPU_PROF_DIR) execArgv.push('--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`);
  const child = fork(entry, [], { execArgv, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
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

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
