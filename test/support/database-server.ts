import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Which PostgreSQL the suite runs on (CONTRACT.md section 1): TEST_DATABASE_URL if set, else a
 * testcontainers PostgreSQL when a container runtime answers, else the embedded server
 * (TEST_DATABASE=embedded: the embedded server whatever answers).
 * The URL returned is a superuser's, on a maintenance database.
 */
export interface DatabaseServer {
  adminUrl: string;
  kind: 'external' | 'container' | 'embedded';
  stop(): Promise<void>;
}

export async function startDatabaseServer(log: (m: string) => void): Promise<DatabaseServer> {
  // TEST_DATABASE=embedded picks the embedded server whatever else answers: CI runs the persistence and
  // process tests once that way, since a developer's laptop without PostgreSQL or a container runtime does.
  const only = process.env.TEST_DATABASE;
  if (only !== undefined && only !== 'embedded') throw new Error(`TEST_DATABASE must be "embedded" or unset, not "${only}"`);
  const external = only ? undefined : process.env.TEST_DATABASE_URL;
  if (external) return { adminUrl: external, kind: 'external', stop: async () => {} };

  const container = only ? null : await tryContainer(log);
  if (container) return container;

  const { startEmbeddedPostgres } = await import('../../src/bootstrap/dev-infrastructure/embedded-postgres/embedded-postgres-server.js');
  const dir = mkdtempSync(join(tmpdir(), 'agent-host-test-pg-'));
  log(only ? `TEST_DATABASE=embedded: embedded PostgreSQL in ${dir}` : `no TEST_DATABASE_URL and no container runtime: embedded PostgreSQL in ${dir}`);
  // A throwaway cluster: durability buys nothing here, so skip the fsyncs.
  const handle = await startEmbeddedPostgres({ dataDir: dir, settings: { fsync: false, synchronous_commit: 'off', full_page_writes: false } }).catch((err) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    adminUrl: handle.connectionString,
    kind: 'embedded',
    stop: async () => {
      await handle.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function tryContainer(log: (m: string) => void): Promise<DatabaseServer | null> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    // Fails at once when no runtime answers; bounded anyway so a half-alive socket cannot hang the run.
    await Promise.race([
      getContainerRuntimeClient(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('container runtime timeout')), 5_000)),
    ]);
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const c = await new PostgreSqlContainer('postgres:16-alpine').start();
    log('PostgreSQL in a container');
    return { adminUrl: c.getConnectionUri(), kind: 'container', stop: async () => void (await c.stop()) };
  } catch (err) {
    log(`no container runtime (${(err as Error).message.split('\n')[0]})`);
    return null;
  }
}

/** The same server, another database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(adminUrl: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}
