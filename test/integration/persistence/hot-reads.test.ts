import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { HOT_READS } from '../../../src/adapters/outbound/persistence/hot-reads.js';
import { queryPositional } from '../../../src/adapters/outbound/persistence/positional-query.js';
import { DatabaseUnavailableError } from '../../../src/adapters/outbound/persistence/pg-errors.js';
import { createPgPools } from '../../../src/adapters/outbound/persistence/pg-pools.js';
import { PgUnitOfWork } from '../../../src/adapters/outbound/persistence/pg-unit-of-work.js';
import { openTestPersistence } from '../../support/persistence.js';
import { insertUser } from '../../support/builders.js';
import type { UserId } from '../../../src/domain/shared/ids.js';

const { db, pools, uow, queue } = await openTestPersistence();
// One connection only: every read below runs on the same pooled connection and its prepared statement.
const single = createPgPools({ databaseUrl: db.url, size: 1 });
const oneConnection = new PgUnitOfWork(single, (executor) => queue.senderFor(executor));
afterAll(() => single.end());
const alice = await insertUser(uow, { name: 'Alice' });
const bob = await insertUser(uow, { name: 'Bob' });
await pools.owner.query(
  `INSERT INTO subscriptions (processor_subscription_id, user_id, kind, catalog, plan, status, last_event_at) VALUES
     ('sub_alice_1', $1, 'subscription', 'checkout', 'solo', 'active', now()),
     ('sub_alice_2', $1, 'subscription', 'billing', 'pro', 'canceled', now());
   INSERT INTO byok_keys (user_id, provider, key_id, ciphertext) VALUES ($1, 'openai', 'k1', '\\x00')`.replaceAll('$1', `'${alice.id}'`),
);

/**
 * The user pool's only connection between calls: its identity, and whether a transaction was left
 * open (then now(), the transaction's start, would precede this statement's start).
 */
async function connectionState() {
  const r = await single.user.query(
    `SELECT nullif(current_setting('app.user_id', true), '') AS id, (SELECT count(*)::int FROM users) AS visible,
            now() = statement_timestamp() AS fresh_transaction`,
  );
  return r.rows[0];
}

describe('hot reads, one prepared call of a function that sets the identity first', () => {
  it('on one pooled connection, each call sees only the acting user, whoever used it before', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 8; i++) {
      const [me, other] = i % 2 ? [alice, bob] : [bob, alice];
      const profile = await oneConnection.readAsUser(me.id, 'profile');
      expect(profile?.id).toBe(me.id);
      seen.push(profile!.name);
      expect(profile!.subscriptions).toEqual(me === alice ? [{ status: 'active', plan: { catalog: 'checkout', plan: 'solo' } }] : []);
      const access = await oneConnection.readAsUser(other.id, 'chatAccess');
      expect(access.subscriptions.map((s) => s.processorId).sort()).toEqual(other === alice ? ['sub_alice_1', 'sub_alice_2'] : []);
      expect(access.byokProviders).toEqual(other === alice ? ['openai'] : []);
    }
    expect(seen).toEqual(['Bob', 'Alice', 'Bob', 'Alice', 'Bob', 'Alice', 'Bob', 'Alice']);
  });

  it('read the profile as the users repository reads the same row: every field, times to the millisecond', async () => {
    const carol = await insertUser(uow, { name: 'Carol, "quoted" {braces}', credits: 2_000_000_000, emailVerified: true });
    await pools.owner.query(`UPDATE users SET notifications = '{"email": true, "digest": false}', two_factor_enabled = true WHERE id = $1`, [carol.id]);
    await pools.owner.query(
      `INSERT INTO subscriptions (processor_subscription_id, user_id, kind, catalog, plan, status, last_event_at) VALUES
         ('sub_carol_1', $1, 'subscription', 'checkout', 'solo', 'trialing', now()), ('sub_carol_2', $1, 'subscription', 'billing', 'pro', 'active', now())`,
      [carol.id],
    );
    const { subscriptions, ...user } = (await oneConnection.readAsUser(carol.id, 'profile'))!;
    const { createdAt: _c, updatedAt: _u, ...stored } = (await uow.asSystem((s) => s.users.findById(carol.id)))!;
    expect(user).toEqual(stored);
    expect(user).toMatchObject({ name: 'Carol, "quoted" {braces}', credits: 2_000_000_000, emailVerified: true, twoFactorEnabled: true, notifications: { email: true, digest: false } });
    expect(subscriptions).toEqual(expect.arrayContaining([{ status: 'trialing', plan: { catalog: 'checkout', plan: 'solo' } }, { status: 'active', plan: { catalog: 'billing', plan: 'pro' } }]));
    expect(subscriptions).toHaveLength(2);
  });

  it('after the calls, the connection carries no identity and no open transaction', async () => {
    await oneConnection.readAsUser(alice.id, 'profile');
    await oneConnection.readAsUser(alice.id, 'chatAccess');
    expect(await connectionState()).toEqual({ id: null, visible: 0, fresh_transaction: true });
  });

  it('when the read fails after the identity was set, the connection is left clean and usable', async () => {
    await pools.owner.query('REVOKE SELECT ON subscriptions FROM app_user');
    try {
      await expect(oneConnection.readAsUser(alice.id, 'chatAccess')).rejects.toMatchObject({ code: '42501' });
    } finally {
      await pools.owner.query('GRANT SELECT ON subscriptions TO app_user');
    }
    expect(await connectionState()).toEqual({ id: null, visible: 0, fresh_transaction: true });
    expect((await oneConnection.readAsUser(alice.id, 'profile'))?.name).toBe('Alice');
  });

  it('when the connection dies during the call, it is destroyed and the next call gets a new one', async () => {
    const locker = await pools.owner.connect();
    try {
      await locker.query('BEGIN; LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
      // Settled into a value at once: the rejection arrives while the test is still terminating.
      const read = oneConnection.readAsUser(alice.id, 'profile').then(() => 'answered', (err: unknown) => err);
      await expect
        .poll(async () => (await pools.owner.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rowCount, { timeout: 5_000, interval: 20 })
        .toBe(1);
      await pools.owner.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
      expect(await read).toBeInstanceOf(DatabaseUnavailableError);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    expect((await oneConnection.readAsUser(alice.id, 'profile'))?.name).toBe('Alice');
    expect(await connectionState()).toEqual({ id: null, visible: 0, fresh_transaction: true });
  });

  it('when the server forgot the prepared statement, the read succeeds on a fresh connection', async () => {
    await oneConnection.readAsUser(alice.id, 'profile');
    await single.user.query('DEALLOCATE ALL');
    expect((await oneConnection.readAsUser(alice.id, 'profile'))?.name).toBe('Alice');
  });

  it('a user id that is not a strict uuid never reaches the database', async () => {
    await expect(oneConnection.readAsUser(`${alice.id}' OR true --` as UserId, 'profile')).rejects.toBeInstanceOf(TypeError);
  });
});

describe('the hot-read statements, as app_user under row-level security', () => {
  it('return for the acting user exactly what the read returns to the owner, who bypasses row-level security', async () => {
    const owner = await pools.owner.connect();
    try {
      for (const read of ['profile', 'chatAccess'] as const) {
        const { columns, sql, map } = HOT_READS[read];
        const expected = map(await queryPositional(owner, `owner_${read}`, `SELECT ${columns} FROM (${sql}) AS hot`, [alice.id]));
        expect(await oneConnection.readAsUser(alice.id, read)).toEqual(expected);
      }
    } finally {
      owner.release();
    }
  });

  it('refuse a pooled connection left inside a transaction, which is destroyed rather than reused', async () => {
    const leaked = await single.user.connect();
    await leaked.query(`BEGIN; SELECT set_config('app.user_id', '${bob.id}', true)`);
    const pid = (await leaked.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    leaked.release();
    await expect(oneConnection.readAsUser(alice.id, 'profile')).rejects.toThrow(/not idle/);
    await expect.poll(async () => (await pools.owner.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount, { timeout: 5_000, interval: 20 }).toBe(0);
    expect((await oneConnection.readAsUser(alice.id, 'profile'))?.name).toBe('Alice');
    expect(await connectionState()).toEqual({ id: null, visible: 0, fresh_transaction: true });
  });

  it('read the real tables whatever search_path the pooled connection was left with', async () => {
    const c = await single.user.connect();
    await c.query(`CREATE TEMP TABLE users (id uuid, name text); INSERT INTO pg_temp.users VALUES ('${alice.id}', 'Mallory'); SET search_path = pg_temp, public`);
    c.release();
    try {
      expect((await oneConnection.readAsUser(alice.id, 'profile'))?.name).toBe('Alice');
    } finally {
      await single.user.query('RESET search_path; DROP TABLE pg_temp.users');
    }
  });
});
