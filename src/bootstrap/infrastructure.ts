import type { Logger } from 'pino';
import { createPgPools, logIdleConnectionError, type PgPools } from '../adapters/outbound/persistence/pg-pools.js';
import { migrateToLatest } from '../adapters/outbound/persistence/migrator.js';
import { PgMailboxSignals } from '../adapters/outbound/persistence/pg-mailbox-signals.js';
import { PgRevocationBus } from '../adapters/outbound/persistence/pg-revocation-bus.js';
import { PgBossQueue } from '../adapters/outbound/queue/pg-boss-queue.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './database.js';

/** The long-lived connections of one process, opened in order and closed in reverse. */
export interface Infrastructure {
  databaseUrl: string;
  pools: PgPools;
  queue: PgBossQueue;
  revocations: PgRevocationBus;
  /** Work to finish once the queue drained and before the pools close (a worker's runtimes and leases), run in order. */
  afterQueueStops: (() => Promise<void>)[];
  /** The agents' mailbox announcements (LISTEN opened on first use). */
  mailboxSignals: PgMailboxSignals;
  /**
   * Settles once the migrations are applied (already settled unless `awaitMigrations: false`);
   * rejects with their failure. Nothing may query the database before it resolves.
   */
  migrated: Promise<void>;
  close(): Promise<void>;
}

export interface InfrastructureOptions {
  /** Told when each step ends (StartupPhases). */
  mark?: (phase: string) => void;
  /** A database already being opened (main.ts starts it early); else opened here. */
  database?: Promise<Database>;
  /**
   * false: the caller starts the queue itself with `queue.start(pools.owner)` (main.ts overlaps it
   * with building the HTTP server) before anything sends or works jobs. Default true.
   */
  startQueue?: boolean;
  /**
   * false (with startQueue false): returns as soon as the pools exist, and the migrations run
   * meanwhile; `migrated` says when they are done. main.ts builds the container and the HTTP
   * routes beside them, which query nothing. If they fail, the caller's close() ends everything.
   * Default true: returns once they are applied (and on their failure closes what it opened).
   */
  awaitMigrations?: boolean;
}

export async function openInfrastructure(config: Config, log: Logger, opts: InfrastructureOptions = {}): Promise<Infrastructure> {
  const mark = opts.mark ?? (() => {});
  const database = await (opts.database ?? openDatabase(config, log));
  const databaseUrl = database.url;
  mark('databaseMs');
  const pools = createPgPools({
    databaseUrl,
    appDatabaseUrl: config.APP_DATABASE_URL,
    systemDatabaseUrl: config.SYSTEM_DATABASE_URL,
    size: config.DB_POOL_SIZE,
    onError: logIdleConnectionError(log),
  });
  const queue = new PgBossQueue({
    connectionString: databaseUrl,
    supervise: config.SERVICE_ROLE !== 'api',
    log,
    retries: {
      webhooks: { retryLimit: config.WEBHOOK_RETRY_LIMIT, retryDelay: config.WEBHOOK_RETRY_DELAY_SECONDS },
      mail: { retryLimit: config.MAIL_RETRY_LIMIT, retryDelay: config.MAIL_RETRY_DELAY_SECONDS },
    },
  });
  // pg-boss's schema and queues beside the migrations (a first start creates both); queue.start()
  // waits for it and then grants the app roles, which the migrations make, the right to send
  const installing = queue.install();
  installing.catch(() => {}); // awaited by queue.start(), or below when the start fails
  const migrated = migrateToLatest(pools.owner).then((applied) => {
    // the names only when looking into something: a first start applies dozens
    if (applied.length) {
      log.info({ count: applied.length }, 'migrations applied');
      log.debug({ applied }, 'migrations applied: names');
    }
  });
  const systemConnection = config.SYSTEM_DATABASE_URL
    ? { connectionString: config.SYSTEM_DATABASE_URL }
    : { connectionString: databaseUrl, options: '-c role=app_system' };
  const revocations = new PgRevocationBus(pools.system, systemConnection, log);
  const mailboxSignals = new PgMailboxSignals(pools.system, systemConnection, log);
  const afterQueueStops: (() => Promise<void>)[] = [];
  const infra: Infrastructure = {
    databaseUrl,
    pools,
    queue,
    revocations,
    afterQueueStops,
    mailboxSignals,
    migrated,
    async close() {
      await mailboxSignals.stop();
      await queue.stop(config.SHUTDOWN_TIMEOUT_MS).catch((err) => log.error({ err }, 'pg-boss stop failed'));
      log.info('queue stopped');
      for (const step of afterQueueStops.splice(0)) await step().catch((err) => log.error({ err }, 'shutdown step failed'));
      await pools.end();
      await database.stop();
    },
  };
  if (opts.awaitMigrations === false) {
    migrated.catch(() => {}); // the caller's to await
    return infra;
  }
  try {
    await migrated;
    mark('migrateMs');
    if (opts.startQueue !== false) {
      await queue.start(pools.owner);
      mark('queueMs');
    }
  } catch (err) {
    // Never leave an embedded server running behind a failed start, nor pg-boss's pool and timers.
    await installing.then(() => queue.stop(0), () => {}).catch(() => {});
    await pools.end().catch(() => {});
    await database.stop().catch(() => {});
    throw err;
  }
  return infra;
}
