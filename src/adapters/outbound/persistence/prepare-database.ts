import type pg from 'pg';
import { PgBossQueue } from '../queue/pg-boss-queue.js';
import { migrateToLatest } from './migrator.js';

/**
 * Everything a database needs before the service can use it, done as the owner: the
 * application's migrations, then pg-boss's schema, queues and the send grants of the app roles.
 */
export async function prepareDatabase(owner: pg.Pool, connectionString: string): Promise<string[]> {
  const applied = await migrateToLatest(owner);
  const queue = new PgBossQueue({ connectionString, supervise: false, log: console });
  await queue.start(owner);
  await queue.stop(1_000);
  return applied;
}
