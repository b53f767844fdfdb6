import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../../src/bootstrap/dev-infrastructure/embedded-postgres/embedded-postgres-server.js';
import { prepareDatabase } from '../../../src/adapters/outbound/persistence/prepare-database.js';

/**
 * A PostgreSQL server of the test's own (embedded, throwaway), migrated and ready: fault tests stop
 * and start it, so they never run on the shared server. `stop`/`start` keep the data and the port.
 */
export async function startOwnPostgres() {
  const dir = mkdtempSync(join(tmpdir(), 'agent-host-fault-pg-'));
  const settings = { fsync: false, max_connections: 200 };
  let server: EmbeddedPostgresHandle = await startEmbeddedPostgres({ dataDir: dir, settings });
  const port = server.port;
  const url = server.connectionString;
  const owner = new pg.Pool({ connectionString: url, max: 1 });
  await prepareDatabase(owner, url);
  await owner.end();
  let running = true;
  return {
    url,
    port,
    async stop() {
      running = false;
      await server.stop();
    },
    async start() {
      server = await startEmbeddedPostgres({ dataDir: dir, port, settings });
      running = true;
    },
    /** One query as the superuser on a connection of its own (the pool of the service is not touched). */
    async query<T extends pg.QueryResultRow = any>(text: string, values: unknown[] = []): Promise<T[]> {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return (await c.query<T>(text, values)).rows;
      } finally {
        await c.end();
      }
    },
    async destroy() {
      if (running) await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
export type OwnPostgres = Awaited<ReturnType<typeof startOwnPostgres>>;
