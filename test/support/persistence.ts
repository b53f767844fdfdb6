import { cleanUpLater } from './cleanup.js';
import { createPgPools, type PgPools } from '../../src/adapters/outbound/persistence/pg-pools.js';
import { PgUnitOfWork } from '../../src/adapters/outbound/persistence/pg-unit-of-work.js';
import { PgBossQueue } from '../../src/adapters/outbound/queue/pg-boss-queue.js';
import { createTestDatabase } from './test-database.js';

/** A fresh database with the service's pools, units of work and queue over it; closed after the file. */
export async function openTestPersistence(opts: { work?: boolean } = {}) {
  const db = await createTestDatabase();
  const pools: PgPools = createPgPools({ databaseUrl: db.url, size: 5 });
  const queue = new PgBossQueue({ connectionString: db.url, supervise: Boolean(opts.work), log: { error: () => {}, warn: () => {} } });
  await queue.start(pools.owner);
  const uow = new PgUnitOfWork(pools, (executor) => queue.senderFor(executor));
  cleanUpLater(async () => {
    await queue.stop(2_000);
    await pools.end();
  });
  return { db, pools, queue, uow };
}
