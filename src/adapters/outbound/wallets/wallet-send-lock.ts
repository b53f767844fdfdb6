import type pg from 'pg';

/** Holds a wallet's send lock around `work`: one sender per wallet at a time. */
export interface WalletSendLock {
  hold<T>(address: string, work: () => Promise<T>): Promise<T>;
}

/**
 * The send lock across processes: a PostgreSQL session advisory lock keyed by the address, taken
 * on a connection of its own for the time of `work` (nonce assignment and broadcast). A process
 * that dies holding it loses its connection, and the lock with it. `work` runs its own units of
 * work on other connections: the hash it records commits before the broadcast, while the lock is held.
 */
export class PgWalletSendLock implements WalletSendLock {
  constructor(private readonly pool: pg.Pool) {}

  async hold<T>(address: string, work: () => Promise<T>): Promise<T> {
    const key = `wallet-send:${address.toLowerCase()}`;
    const client = await this.pool.connect();
    // a connection whose unlock failed is discarded: its session, and so the lock, ends with it
    let discard: Error | undefined;
    try {
      await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [key]).catch((err: Error) => {
        discard = err;
        throw err;
      });
      try {
        return await work();
      } finally {
        await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch((err: Error) => (discard = err));
      }
    } finally {
      client.release(discard);
    }
  }
}
