import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { isUuid, type UserId } from '../../../domain/shared/ids.js';
import type { JobSender } from '../../../application/ports/job-queue.port.js';
import type { HotReads, HotWrites, SystemScope, UnitOfWork, UserScope } from '../../../application/ports/unit-of-work.port.js';
import { HOT_IDENTITY, HOT_READS } from './hot-reads.js';
import { HOT_WRITES } from './hot-writes.js';
import { submitPipelined, type Statement, type TextRow } from './positional-query.js';
import { kyselyFor } from './kysely/kysely-for-client.js';
import { createSystemScope, createUserScope } from './kysely/scopes.js';
import { DatabaseUnavailableError, isConnectionError } from './pg-errors.js';
import type { Database } from './kysely/database.js';
import type { PgPools } from './pg-pools.js';
import type { SqlExecutor } from './sql-executor.js';

const UNDEFINED_PREPARED = '26000';
const CALLS = Object.fromEntries(
  Object.entries(HOT_READS).map(([read, { name, sql, columns, map }]) => [read, { name, text: `SELECT ${columns} FROM (${sql}) AS hot`, map }]),
) as { [K in keyof HotReads]: { name: string; text: string; map: (rows: TextRow[]) => HotReads[K] } };

/** A pooled connection that is not idle (a transaction left open) never runs a hot read: it is destroyed. */
class ConnectionNotIdleError extends Error {}

export type JobSenderFactory = (executor: SqlExecutor) => JobSender;

/**
 * Units of work over pg. A user's unit opens with one message, `BEGIN; SELECT set_config(...)`,
 * so the identity is set before any statement of the use case can run, and only for this
 * transaction (`is_local`): a pooled connection never carries it to the next request.
 */
export class PgUnitOfWork implements UnitOfWork {
  /** The system pool itself behind Kysely: each statement checks a connection out on its own. */
  private readonly systemStatements: Kysely<Database>;

  constructor(
    private readonly pools: PgPools,
    private readonly jobSenderFor: JobSenderFactory,
  ) {
    // Each statement goes as a named prepared statement (named by its text): these run on every
    // agent answer, and a connection parses and plans each text once instead of every time.
    const pool = {
      connect: async () => {
        const client = await connect(pools.system);
        return { query: (text: string, values: unknown[]) => client.query({ name: preparedName(text), text, values }), release: (e?: unknown) => client.release(e as boolean) };
      },
      end: async () => {},
    };
    this.systemStatements = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool as never }) });
  }

  asUser<T>(userId: UserId, work: (scope: UserScope) => Promise<T>): Promise<T> {
    // The uuid is pasted into the message: only a strictly validated literal may be.
    if (!isUuid(userId)) throw new TypeError('unit of work needs a uuid user id');
    return this.run(
      this.pools.user,
      `BEGIN; SELECT set_config('app.user_id', '${userId}', true)`,
      (client) => work(createUserScope(kyselyFor(client), userId, this.jobSenderFor(executorOf(client)))),
    );
  }

  readAsUser<K extends keyof HotReads>(userId: UserId, read: K): Promise<HotReads[K]> {
    if (!isUuid(userId)) return Promise.reject(new TypeError('unit of work needs a uuid user id'));
    const { name, text, map } = CALLS[read];
    const statements: Statement[] = [{ name: HOT_IDENTITY.name, text: HOT_IDENTITY.text, values: [userId] }, { name, text, values: [userId] }];
    const mapped = (results: TextRow[][]) => map(results[1]!);
    // The server lost the statement pg believes prepared (DEALLOCATE, DISCARD): that connection was
    // destroyed, and a fresh one prepares it again (as oneCall does for the writes).
    return pipelinedOnIdleConnection(this.pools.user, statements).then(mapped, (err: unknown) =>
      (err as { code?: string }).code === UNDEFINED_PREPARED ? pipelinedOnIdleConnection(this.pools.user, statements).then(mapped) : Promise.reject(err),
    );
  }

  async writeAsUser<K extends keyof HotWrites>(userId: UserId, write: K, args: HotWrites[K]['args']): Promise<HotWrites[K]['result']> {
    const w = HOT_WRITES[write];
    if (!isUuid(userId)) throw new TypeError('unit of work needs a uuid user id');
    if (!w.accepts(args)) return w.refused;
    const values = w.values(args);
    const call = `SELECT h.*${w.alsoSelect ? `, ${w.alsoSelect}` : ''} FROM ${w.fn}($1${values.map((_, i) => `, $${i + 2}`).join('')}) h`;
    // without waiting for the disk: the setting is local to the call's implicit transaction, read at its commit
    const [name, text] = w.awaitDisk(args) ? [w.fn, call] : [`${w.fn}_nowait`, `${call} WHERE set_config('synchronous_commit', 'off', true) IS NOT NULL`];
    return this.oneCall(userId, async (client) => w.map((await client.query({ name, text, values: [userId, ...values] })).rows, args, userId));
  }

  /**
   * One round trip of a hot read or write on a pooled `app_user` connection, outside any
   * transaction. A read is two prepared statements in one implicit transaction: the identity
   * (`set_config('app.user_id', $1, true)`), then the read under RLS; a write is one prepared call
   * of a function that sets the identity first (migration 2026_11_25_0032). Either way the setting
   * ends with that transaction, so the connection keeps no identity. Whatever identity is given is
   * set: only a strictly validated uuid may reach it.
   */
  private async oneCall<T>(userId: UserId, call: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (!isUuid(userId)) throw new TypeError('unit of work needs a uuid user id');
    try {
      return await this.preparedCall(call);
    } catch (err) {
      // The server lost the statement pg believes prepared (DEALLOCATE, DISCARD): that connection
      // was destroyed, and a fresh one prepares it again.
      if ((err as { code?: string }).code !== UNDEFINED_PREPARED) throw err;
      return this.preparedCall(call);
    }
  }

  private async preparedCall<T>(call: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await connect(this.pools.user);
    let result: T;
    try {
      result = await call(client);
    } catch (err) {
      return releaseAfterFailure(client, err);
    }
    client.release();
    return result;
  }

  asSystem<T>(work: (scope: SystemScope) => Promise<T>): Promise<T> {
    return this.run(this.pools.system, 'BEGIN', (client) =>
      work(createSystemScope(kyselyFor(client), this.jobSenderFor(executorOf(client)))),
    );
  }

  async statementsAsSystem<T>(work: (scope: SystemScope) => Promise<T>): Promise<T> {
    const pool = this.pools.system;
    try {
      return await work(createSystemScope(this.systemStatements, this.jobSenderFor({ executeSql: (text, values) => pool.query(text, values as unknown[]) })));
    } catch (err) {
      throw isConnectionError(err) ? new DatabaseUnavailableError(err) : err;
    }
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

const preparedNames = new Map<string, string>();
/** A stable name per statement text (`s_` and 24 hex digits of its sha256), remembered per process. */
function preparedName(text: string): string {
  let name = preparedNames.get(text);
  if (!name) {
    name = `s_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    preparedNames.set(text, name);
  }
  return name;
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
  listenForErrors(client);
  return client;
}

/**
 * A checked-out client losing its connection emits 'error' besides rejecting the query in flight;
 * the pool listens only while the client is idle, so without this the process would crash. The
 * rejected query is where the failure is handled (and the client destroyed).
 */
function listenForErrors(client: pg.PoolClient): void {
  if (!listened.has(client)) {
    listened.add(client);
    client.on('error', ignoreWhileQueryFails);
  }
}

function ignoreWhileQueryFails(): void {}

/**
 * A failed call already ended its implicit transaction on the server. The connection goes back
 * only if it answers ROLLBACK and still knows its prepared statements; the failure is rethrown
 * (a lost connection as DatabaseUnavailableError).
 */
async function releaseAfterFailure(client: pg.PoolClient, err: unknown): Promise<never> {
  const reusable = !(err instanceof ConnectionNotIdleError) && (err as { code?: string }).code !== UNDEFINED_PREPARED && (await client.query('ROLLBACK').then(() => true, () => false));
  client.release(reusable ? undefined : true);
  throw isConnectionError(err) ? new DatabaseUnavailableError(err) : err;
}

/**
 * `statements` pipelined on a pooled connection outside any transaction (a hot read: the identity,
 * then the read, local to that round trip's implicit transaction), as one promise: the pool's and
 * the query's callbacks, no await in between, since every authenticated read runs it. A connection
 * left inside a transaction is refused and destroyed (the identity would outlive the read); a
 * failure goes through releaseAfterFailure.
 */
function pipelinedOnIdleConnection(pool: pg.Pool, statements: readonly Statement[]): Promise<TextRow[][]> {
  return new Promise((resolve, reject) => {
    pool.connect((connectErr, client) => {
      if (connectErr || !client) return reject(new DatabaseUnavailableError(connectErr));
      listenForErrors(client);
      // null: a connection the pool just opened, whose callback pg calls before it records the
      // first ReadyForQuery's status (nothing has run on it)
      const status = (client as pg.PoolClient & { getTransactionStatus(): string | null }).getTransactionStatus();
      if (status !== 'I' && status !== null) {
        return releaseAfterFailure(client, new ConnectionNotIdleError('a pooled connection was not idle')).catch(reject);
      }
      submitPipelined(client, statements, (err, results) => {
        if (err) return void releaseAfterFailure(client, err).catch(reject);
        client.release();
        resolve(results);
      });
    });
  });
}

const executorOf = (client: pg.PoolClient): SqlExecutor => ({
  executeSql: (text, values) => client.query(text, values as unknown[]),
});
