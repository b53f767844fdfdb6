import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { Database } from './database.js';

/**
 * A Kysely bound to one already-checked-out connection, so a unit of work can open its
 * transaction with its own first message (BEGIN plus set_config) and still build queries with
 * Kysely. Built once per physical connection and reused: pooled clients live long.
 */
const bound = new WeakMap<pg.PoolClient, Kysely<Database>>();

export function kyselyFor(client: pg.PoolClient): Kysely<Database> {
  let db = bound.get(client);
  if (!db) {
    const borrowed = { query: client.query.bind(client), release: () => {} };
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: { connect: async () => borrowed, end: async () => {} } as never }),
    });
    bound.set(client, db);
  }
  return db;
}
