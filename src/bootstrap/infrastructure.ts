import { join } from 'node:path';
import type { Logger } from 'pino';
import { createPgPools, type PgPools } from '../adapters/outbound/persistence/pg-pools.js';
import { migrateToLatest } from '../adapters/outbound/persistence/migrator.js';
import { PgRevocationBus } from '../adapters/outbound/persistence/pg-revocation-bus.js';
import { PgBossQueue } from '../adapters/outbound/queue/pg-boss-queue.js';
import type { Config } from './config.js';

/** The long-lived connections of one process, opened in order and closed in reverse. */
export interface Infrastructure {
  databaseUrl: string;
  pools: PgPools;
  queue: PgBossQueue;
  revocations: PgRevocationBus;
  close(): Promise<void>;
}

export async function openInfrastructure(config: Config, log: Logger): Promise<Infrastructure> {
  let databaseUrl = config.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!databaseUrl) {
    const { startEmbeddedPostgres } = await import('../adapters/outbound/persistence/embedded/embedded-postgres-server.js');
    const dataDir = join(config.DATA_DIR, 'postgres');
    log.info({ dataDir }, 'DATABASE_URL is unset: starting the embedded PostgreSQL');
    const handle = await startEmbeddedPostgres({ dataDir, log: (m) => log.debug({ embeddedPostgres: m }) });
    databaseUrl = handle.connectionString;
    stopEmbedded = () => handle.stop();
    log.info({ port: handle.port }, 'embedded PostgreSQL is running');
  }
  const pools = createPgPools({
    databaseUrl,
    appDatabaseUrl: config.APP_DATABASE_URL,
    systemDatabaseUrl: config.SYSTEM_DATABASE_URL,
    size: config.DB_POOL_SIZE,
    onError: (err) => log.warn({ err }, 'idle database connection failed'),
  });
  const applied = await migrateToLatest(pools.owner);
  if (applied.length) log.info({ applied }, 'migrations applied');
  const revocations = new PgRevocationBus(
    pools.system,
    config.SYSTEM_DATABASE_URL ? { connectionString: config.SYSTEM_DATABASE_URL } : { connectionString: databaseUrl, options: '-c role=app_system' },
    log,
  );
  const queue = new PgBossQueue({ connectionString: databaseUrl, supervise: config.SERVICE_ROLE !== 'api', log });
  await queue.start(pools.owner);
  return {
    databaseUrl,
    pools,
    queue,
    revocations,
    async close() {
      await queue.stop(config.SHUTDOWN_TIMEOUT_MS).catch((err) => log.error({ err }, 'pg-boss stop failed'));
      log.info('queue stopped');
      await pools.end();
      await stopEmbedded?.();
    },
  };
}
