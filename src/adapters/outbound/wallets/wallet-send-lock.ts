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
 *
 * Sends of one wallet in this process queue here first, so a process waits on PostgreSQL with
 * one connection per wallet at most, however many sends from that wallet it has in hand.
 */
export class PgWalletSendLock implements WalletSendLock {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly pool: pg.Pool) {}

  hold<T>(address: string, work: () => Promise<T>): Promise<T> {
    const key = address.toLowerCase();
    const before = this.queues.get(key) ?? Promise.resolve();
    const run = before.then(() => this.holdInDatabase(key, work));
    const tail = run.catch(() => {});
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }

  private async holdInDatabase<T>(address: string, work: () => Promise<T>): Promise<T> {
    const key = `wallet-send:${address}`;
    const client = await this.pool.connect();
    // a connection whose lock or unlock failed is discarded: its session, and so the lock, ends with it
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
