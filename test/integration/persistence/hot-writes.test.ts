import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgPools } from '../../../src/adapters/outbound/persistence/pg-pools.js';
import { PgUnitOfWork } from '../../../src/adapters/outbound/persistence/pg-unit-of-work.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';

/**
 * The hot write of POST /api/chat (migration 2026_11_25_0032): one prepared call that sets the
 * identity, then stores and queues the message as app_user under RLS, only for the caller's own
 * running agent (and that agent's session). Same isolation as the hot reads (hot-reads.test.ts).
 */
const { db, pools, uow, queue } = await openTestPersistence();
// The tests below check that a write's `synchronous_commit = off` stays inside its own transaction. The
// embedded test cluster turns the setting off server-wide, where that check would prove nothing: this
// database's sessions start with it on, on every server the suite runs on.
await pools.owner.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET synchronous_commit = on', current_database()); END $$`);
// One connection only: every call below runs on the same pooled connection and its prepared statement.
const single = createPgPools({ databaseUrl: db.url, size: 1 });
const oneConnection = new PgUnitOfWork(single, (executor) => queue.senderFor(executor));
afterAll(() => single.end());

const alice = await insertUser(uow, { name: 'Alice' });
const bob = await insertUser(uow, { name: 'Bob' });
const agentOf = async (userId: string, status: string) =>
  (await pools.owner.query<{ id: string }>(`INSERT INTO agents (user_id, name, model, status) VALUES ($1, 'Hot', 'm', $2) RETURNING id`, [userId, status])).rows[0]!.id;
const aliceRunning = await agentOf(alice.id, 'running');
const aliceStopped = await agentOf(alice.id, 'stopped');
const bobRunning = await agentOf(bob.id, 'running');

const send = (userId: string, agentId: string, sessionId: string | null = null, content = 'hello', awaitDisk = false) =>
  oneConnection.writeAsUser(userId as UserId, 'sendToRunningAgent', { agentId, content, channel: 'web', sessionId, awaitDisk });

/** Messages and mailbox rows of an agent, read as the owner. */
async function stored(agentId: string) {
  const { rows } = await pools.owner.query(
    `SELECT m.id, m.user_id, m.content, m.session_id, b.status FROM agent_messages m LEFT JOIN agent_mailbox b ON b.message_id = m.id WHERE m.agent_id = $1 ORDER BY m.created_at`,
    [agentId],
  );
  return rows;
}

async function connectionState() {
  const r = await single.user.query(
    `SELECT nullif(current_setting('app.user_id', true), '') AS id, (SELECT count(*)::int FROM agents) AS visible, now() = statement_timestamp() AS fresh_transaction,
            current_setting('synchronous_commit') AS synchronous_commit`,
  );
  return r.rows[0];
}

describe('the hot write of a chat message, one prepared call', () => {
  it('stores and queues the message for the caller\'s running agent, and the connection keeps no identity', async () => {
    const m = await send(alice.id, aliceRunning, null, 'first');
    expect(m).toMatchObject({ agentId: aliceRunning, role: 'user', content: 'first', channel: 'web', sessionId: null });
    expect(await stored(aliceRunning)).toEqual([{ id: m!.id, user_id: alice.id, content: 'first', session_id: null, status: 'queued' }]);
    expect(await connectionState()).toEqual({ id: null, visible: 0, fresh_transaction: true, synchronous_commit: 'on' });
  });

  it('stores the same whether its commit waits for the disk or not; only its own transaction skipped the wait', async () => {
    const waited = await send(alice.id, aliceRunning, null, 'durable at once', true);
    const fast = await send(alice.id, aliceRunning, null, 'durable shortly', false);
    expect(waited).toMatchObject({ content: 'durable at once' });
    expect(fast).toMatchObject({ content: 'durable shortly' });
    const rows = await stored(aliceRunning);
    expect(rows.slice(-2).map((r) => [r.content, r.status])).toEqual([['durable at once', 'queued'], ['durable shortly', 'queued']]);
    expect(await connectionState()).toEqual({ id: null, visible: 0, fresh_transaction: true, synchronous_commit: 'on' });
    // made durable before a `pending` answer: a write that changes nothing, committed synchronously
    await uow.statementsAsSystem((s) => s.agentMailbox.makeDurable(fast!.id));
    expect((await stored(aliceRunning)).slice(-1)).toEqual([{ id: fast!.id, user_id: alice.id, content: 'durable shortly', session_id: null, status: 'queued' }]);
  });

  it('writes nothing for another user\'s agent, a stopped agent or an unknown one, on the same connection as the owner\'s calls', async () => {
    const before = { bob: (await stored(bobRunning)).length, stopped: (await stored(aliceStopped)).length };
    for (let i = 0; i < 3; i++) {
      expect(await send(alice.id, bobRunning)).toBeNull();
      expect(await send(bob.id, bobRunning)).not.toBeNull();
      expect(await send(alice.id, aliceStopped)).toBeNull();
      expect(await send(alice.id, '00000000-0000-4000-8000-000000000000')).toBeNull();
    }
    expect((await stored(bobRunning)).length).toBe(before.bob + 3);
    expect((await stored(bobRunning)).every((r) => r.user_id === bob.id)).toBe(true);
    expect((await stored(aliceStopped)).length).toBe(before.stopped);
  });

  it('takes a session only when it is that agent\'s', async () => {
    const mine = await uow.asUser(alice.id, (s) => s.agentSessions.create(aliceRunning, alice.id));
    const bobs = await uow.asUser(bob.id, (s) => s.agentSessions.create(bobRunning, bob.id));
    expect(await send(alice.id, aliceRunning, mine.id)).toMatchObject({ sessionId: mine.id });
    expect(await send(alice.id, aliceRunning, bobs.id)).toBeNull();
    expect(await send(bob.id, bobRunning, mine.id)).toBeNull();
    expect((await stored(bobRunning)).some((r) => r.session_id === mine.id)).toBe(false);
  });

  it('answers null without a round trip for a malformed agent or session id, and refuses a user id that is not a uuid', async () => {
    expect(await send(alice.id, 'not-a-uuid')).toBeNull();
    expect(await send(alice.id, aliceRunning, "x' OR true --")).toBeNull();
    await expect(send(`${alice.id}' OR true --`, aliceRunning)).rejects.toBeInstanceOf(TypeError);
  });

  it('when the write fails after the identity was set, nothing is kept and the connection is clean', async () => {
    const before = (await stored(aliceRunning)).length;
    // the channel's check constraint refuses it inside the function
    await expect(oneConnection.writeAsUser(alice.id, 'sendToRunningAgent', { agentId: aliceRunning, content: 'x', channel: 'c'.repeat(40), sessionId: null, awaitDisk: false })).rejects.toMatchObject({ code: '23514' });
    expect((await stored(aliceRunning)).length).toBe(before);
    expect(await connectionState()).toEqual({ id: null, visible: 0, fresh_transaction: true, synchronous_commit: 'on' });
    expect(await send(alice.id, aliceRunning)).not.toBeNull();
  });
});

describe('the hot_send_message function itself', () => {
  it('refuses to replace an identity already set in the transaction, and the system role cannot call it', async () => {
    const c = new pg.Client({ connectionString: db.url, options: '-c role=app_user' });
    await c.connect();
    try {
      await c.query(`BEGIN; SELECT set_config('app.user_id', '${bob.id}', true)`);
      await expect(c.query(`SELECT * FROM hot_send_message($1, $2, 'x', 'web', NULL)`, [alice.id, aliceRunning])).rejects.toMatchObject({ code: '42501' });
      await c.query('ROLLBACK');
    } finally {
      await c.end();
    }
    const system = new pg.Client({ connectionString: db.url, options: '-c role=app_system' });
    await system.connect();
    try {
      await expect(system.query(`SELECT * FROM hot_send_message($1, $2, 'x', 'web', NULL)`, [alice.id, aliceRunning])).rejects.toMatchObject({ code: '42501' });
    } finally {
      await system.end();
    }
  });
});
