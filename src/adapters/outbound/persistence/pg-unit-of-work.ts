import type pg from 'pg';
import { isUuid, type UserId } from '../../../domain/shared/ids.js';
import type { JobSender } from '../../../application/ports/job-queue.port.js';
import type { HotReads, SystemScope, UnitOfWork, UserScope } from '../../../application/ports/unit-of-work.port.js';
import { HOT_READS } from './hot-reads.js';
import { kyselyFor } from './kysely/kysely-for-client.js';
import { createSystemScope, createUserScope } from './kysely/scopes.js';
import { DatabaseUnavailableError, isConnectionError } from './pg-errors.js';
import type { PgPools } from './pg-pools.js';
import type { SqlExecutor } from './sql-executor.js';

const DUPLICATE_PREPARED = '42P05';
const UNDEFINED_PREPARED = '26000';
/** Hot reads already prepared on each pooled connection. */
const preparedStatements = new WeakMap<pg.PoolClient, Set<string>>();
const preparedOn = (client: pg.PoolClient): Set<string> => {
  let set = preparedStatements.get(client);
  if (!set) preparedStatements.set(client, (set = new Set()));
  return set;
};

export type JobSenderFactory = (executor: SqlExecutor) => JobSender;

/**
 * Units of work over pg. A user's unit opens with one message, `BEGIN; SELECT set_config(...)`,
 * so the identity is set before any statement of the use case can run, and only for this
 * transaction (`is_local`): a pooled connection never carries it to the next request.
 */
export class PgUnitOfWork implements UnitOfWork {
  constructor(
    private readonly pools: PgPools,
    private readonly jobSenderFor: JobSenderFactory,
  ) {}

  asUser<T>(userId: UserId, work: (scope: UserScope) => Promise<T>): Promise<T> {
    // The uuid is pasted into the message: only a strictly validated literal may be.
    if (!isUuid(userId)) throw new TypeError('unit of work needs a uuid user id');
    return this.run(
      this.pools.user,
      `BEGIN; SELECT set_config('app.user_id', '${userId}', true)`,
      (client) => work(createUserScope(kyselyFor(client), userId, this.jobSenderFor(executorOf(client)))),
    );
  }

  async readAsUser<K extends keyof HotReads>(userId: UserId, read: K): Promise<HotReads[K]> {
    if (!isUuid(userId)) throw new TypeError('unit of work needs a uuid user id');
    const client = await connect(this.pools.user);
    let reusable = true;
    try {
      return await this.hotRead(client, userId, read);
    } catch (err) {
      reusable = await client.query('ROLLBACK').then(() => true, () => false);
      throw isConnectionError(err) ? new DatabaseUnavailableError(err) : err;
    } finally {
      client.release(reusable ? undefined : true);
    }
  }

  /**
   * One message: BEGIN, the identity, the read, COMMIT. PostgreSQL runs each statement after the
   * previous one, so set_config applies to the read. The read is a statement prepared once per
   * connection (PREPARE rides along in the first message), so it is not planned on every request;
   * its row-security quals read the setting at execution. Only the validated uuid is pasted.
   */
  private async hotRead<K extends keyof HotReads>(client: pg.PoolClient, userId: UserId, read: K, retried = false): Promise<HotReads[K]> {
    const { sql, map } = HOT_READS[read];
    const name = `hot_${read}`;
    const prepared = preparedOn(client);
    const prepare = prepared.has(name) ? '' : `PREPARE ${name}(uuid) AS ${sql}; `;
    const message = `BEGIN READ ONLY; SELECT set_config('app.user_id', '${userId}', true); ${prepare}EXECUTE ${name}('${userId}'); COMMIT`;
    try {
      const results = (await client.query(message)) as unknown as pg.QueryResult[];
      prepared.add(name);
      return map(results.at(-2)!.rows) as HotReads[K];
    } catch (err) {
      // Our memory of what this connection has prepared disagreed with the server: fix it, try once more.
      const code = (err as { code?: string }).code;
      if (retried || (code !== DUPLICATE_PREPARED && code !== UNDEFINED_PREPARED)) throw err;
      await client.query('ROLLBACK');
      if (code === DUPLICATE_PREPARED) prepared.add(name);
      else prepared.delete(name);
      return this.hotRead(client, userId, read, true);
    }
  }

  asSystem<T>(work: (scope: SystemScope) => Promise<T>): Promise<T> {
    return this.run(this.pools.system, 'BEGIN', (client) =>
      work(createSystemScope(kyselyFor(client), this.jobSenderFor(executorOf(client)))),
    );
  }

  private async run<T>(pool: pg.Pool, opening: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await connect(pool);
    let reusable = true;
    try {
      await client.query(opening);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      // A connection whose transaction cannot be closed is destroyed, never returned to the pool.
      reusable = await client.query('ROLLBACK').then(() => true, () => false);
      throw isConnectionError(err) ? new DatabaseUnavailableError(err) : err;
    } finally {
      client.release(reusable ? undefined : true);
    }
  }
}

/** Clients that already carry the listener below. */
const listened = new WeakSet<pg.PoolClient>();

async function connect(pool: pg.Pool): Promise<pg.PoolClient> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw new DatabaseUnavailableError(err);
  }
  // A checked-out client losing its connection emits 'error' besides rejecting the query in
  // flight; the pool listens only while the client is idle, so without this the process would
  // crash. The rejected query is where the failure is handled (and the client destroyed).
  if (!listened.has(client)) {
    listened.add(client);
    client.on('error', ignoreWhileQueryFails);
  }
  return client;
}

function ignoreWhileQueryFails(): void {}

const executorOf = (client: pg.PoolClient): SqlExecutor => ({
  executeSql: (text, values) => client.query(text, values as unknown[]),
});
