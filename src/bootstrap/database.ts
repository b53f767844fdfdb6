import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';

/** Where the owner connects, and how to stop the server when it is ours. */
export interface Database {
  url: string;
  /** Stops the embedded PostgreSQL; nothing for a DATABASE_URL. */
  stop(): Promise<void>;
}

/**
 * DATABASE_URL, or the embedded PostgreSQL under DATA_DIR/postgres when it is unset. Light on
 * imports, so main.ts can start it while the rest of the service is still loading. `launched` is
 * told once what is left of the start runs in other processes (the embedded server's initdb or
 * start; at once for a DATABASE_URL); not told when the start fails before that.
 */
export async function openDatabase(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>, log: Logger, opts: { launched?: () => void } = {}): Promise<Database> {
  const launched = opts.launched ?? (() => {});
  if (config.DATABASE_URL) {
    launched();
    return { url: config.DATABASE_URL, stop: async () => {} };
  }
  const { startEmbeddedPostgres } = await import('./dev-infrastructure/embedded-postgres/embedded-postgres-server.js');
  const dataDir = join(config.DATA_DIR, 'postgres');
  log.info({ dataDir }, 'DATABASE_URL is unset: starting the embedded PostgreSQL');
  // templates: a fresh DATA_DIR's cluster is copied from one an earlier initdb made (cluster-template.ts)
  const handle = await startEmbeddedPostgres({ dataDir, log: (m) => log.debug({ embeddedPostgres: m }), launched, templates: true });
  log.info({ port: handle.port }, 'embedded PostgreSQL is running');
  return { url: handle.connectionString, stop: () => handle.stop() };
}
