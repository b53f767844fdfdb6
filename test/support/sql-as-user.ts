import type pg from 'pg';
import type { PgPools } from '../../src/adapters/outbound/persistence/pg-pools.js';

/**
 * Raw SQL as one user on the `app_user` pool, as the service's unit of work sets the identity (the
 * first message of the transaction), always rolled back: for row-level security tests that try
 * statements the repositories would never send.
 */
export const sqlAsUser =
  (pools: PgPools) =>
  async (userId: string, sql: string, values: unknown[] = []): Promise<pg.QueryResult> => {
    const client = await pools.user.connect();
    try {
      await client.query(`BEGIN; SELECT set_config('app.user_id', '${userId}', true)`);
      return await client.query(sql, values);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  };
