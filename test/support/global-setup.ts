import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { prepareDatabase } from '../../src/adapters/outbound/persistence/prepare-database.js';
import { adminQuery, startDatabaseServer, withDatabase } from './database-server.js';
import { startRedisServer } from './redis-server.js';
import { serveDockerEngine } from './agent-runtimes/docker-engine-provider.js';

type Provided = { adminUrl: string; templateDatabase: string; runId: string; redisUrl: string; dockerEngineUrl: string };
type Run = { provided: Provided; teardown: () => Promise<void> };

/**
 * Vitest runs a global setup once per project (unit tests are a project of their own, see
 * vitest.config.ts), in the one main process: the run is started by the first call and shared by
 * the rest (each provides the same values to its project), and torn down after the last project's
 * teardown. Started once per project, each nested its own TMPDIR inside the last one, and unix
 * socket paths there grew past their limit (Chromium's, PostgreSQL's, dockerd's).
 */
const shared = globalThis as typeof globalThis & { agentHostTestRun?: { users: number; started: Promise<Run> } };

export default async function setup(project: TestProject) {
  const run = (shared.agentHostTestRun ??= { users: 0, started: startRun() });
  run.users += 1;
  const { provided, teardown } = await run.started;
  for (const [key, value] of Object.entries(provided)) project.provide(key as keyof Provided, value);
  return async () => {
    run.users -= 1;
    if (run.users === 0) await teardown();
  };
}

/**
 * Once per run: pick the server, migrate one template database, hand its name to the test
 * files (each clones its own database from it), and drop everything this run made at the end.
 */
async function startRun(): Promise<Run> {
  const log = (m: string) => console.log(`[test-db] ${m}`);
  // The web console the service serves (dist/web): the browser tests and the adapter's tests load it.
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'inherit' });
  const scratch = privateTempDir();
  // started only when a docker test asks for it (most runs have none)
  const docker = await serveDockerEngine((m) => console.log(`[docker] ${m}`));
  const done = async () => {
    await docker.stop();
    scratch.check();
  };
  let server;
  try {
    server = await startDatabaseServer(log);
  } catch (err) {
    // Unit tests still run; every test that asks for a database fails with this reason.
    log(`no PostgreSQL could be started: ${(err as Error).message}`);
    return { provided: { adminUrl: '', templateDatabase: '', runId: '', redisUrl: '', dockerEngineUrl: docker.url }, teardown: done };
  }
  const redis = await startRedisServer(log).catch((err: Error) => {
    // Only the rate-limit tests need it; they fail with this reason.
    log(err.message);
    return { url: '', stop: async () => {} };
  });
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const template = `tmpl_${runId}`;
  await adminQuery(server.adminUrl, `CREATE DATABASE ${template}`);
  const url = withDatabase(server.adminUrl, template);
  const owner = new pg.Pool({ connectionString: url, max: 2 });
  try {
    await prepareDatabase(owner, url);
  } finally {
    await owner.end();
  }
  const teardown = async () => {
    const { rows } = await adminQuery(server.adminUrl, `SELECT datname FROM pg_database WHERE datname LIKE 't\\_${runId}\\_%' OR datname = '${template}'`);
    for (const { datname } of rows) await adminQuery(server.adminUrl, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
    await server.stop();
    await redis.stop();
    await done();
  };
  return { provided: { adminUrl: server.adminUrl, templateDatabase: template, runId, redisUrl: redis.url, dockerEngineUrl: docker.url }, teardown };
}

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDatabase: string;
    runId: string;
    /** A Redis for the shared rate-limit tests ('' when none could be found or started). */
    redisUrl: string;
    /** Where a docker test asks for the run's Docker Engine (test/support/agent-runtimes/docker-engine.ts). */
    dockerEngineUrl: string;
  }
}

/**
 * The run's own temporary folder: the test processes inherit it as TMPDIR, so whatever a test
 * makes there is this run's, and a test that leaves something behind fails the run here.
 * tsx's and vite's own caches are theirs to keep.
 */
function privateTempDir(): { check(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-host-run-'));
  // Like /tmp (sticky, writable by all): as root, an embedded PostgreSQL made in here runs as the
  // postgres user, and the non-root tests run children as another user.
  chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
  return {
    check() {
      const left = readdirSync(dir).filter((name) => !/^(tsx|vite)/.test(name));
      rmSync(dir, { recursive: true, force: true });
      if (left.length === 0) return;
      // A teardown that throws is only reported; the exit code is what CI reads.
      console.error(`[test-db] tests left these in the temporary folder (each test removes what it made): ${left.join(', ')}`);
      process.exitCode = 1;
    },
  };
}
