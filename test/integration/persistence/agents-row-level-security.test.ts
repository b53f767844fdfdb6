import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { sqlAsUser } from '../../support/sql-as-user.js';

/** The agent tables as the request role sees them (migration 0008): own rows only, append-only events and messages. */
const { pools, uow } = await openTestPersistence();
const alice = await insertUser(uow);
const bob = await insertUser(uow);
const aliceAgent = await uow.asUser(alice.id, (s) => s.agents.insert({ name: 'A', model: 'm', tier: null, config: { secret: 'alice' } }));
await pools.owner.query(
  `insert into instances (user_id, status, subdomain, url, plan, runtime_version, gateway_token_key_id, gateway_token_sealed, gateway_token_hash)
   values ($1, 'running', 'sub-a', 'http://a', 'solo', 'v1', 'k', '\\x01', '\\x02')`,
  [alice.id],
);
await pools.owner.query(`insert into agent_events (agent_id, user_id, kind) values ($1, $2, 'provisioned')`, [aliceAgent.id, alice.id]);
await pools.owner.query(`insert into agent_messages (agent_id, user_id, role, content) values ($1, $2, 'user', 'hi')`, [aliceAgent.id, alice.id]);

/** Runs `sql` as app_user acting as `userId`, in a transaction rolled back afterwards. */
const asUser = sqlAsUser(pools);

describe('agent tables under row-level security', () => {
  it('when another user reads, then no agent, instance, event or message of alice is visible', async () => {
    for (const table of ['agents', 'agent_events', 'agent_messages']) {
      expect((await asUser(bob.id, `select count(*)::int as n from ${table}`)).rows[0].n, table).toBe(0);
      expect((await asUser(alice.id, `select count(*)::int as n from ${table}`)).rows[0].n, table).toBe(1);
    }
    expect((await asUser(bob.id, `select count(*)::int as n from instances`)).rows[0].n).toBe(0);
    expect(await uow.asUser(bob.id, (s) => s.agents.get(aliceAgent.id))).toBeNull();
    expect(await uow.asUser(bob.id, (s) => s.agents.replaceConfig(aliceAgent.id, { secret: 'bob' }))).toBe(false);
    expect(await uow.asUser(bob.id, (s) => s.agentMessages.page(aliceAgent.id, 10, 0))).toEqual({ messages: [], total: 0 });
    expect((await uow.asUser(alice.id, (s) => s.agents.get(aliceAgent.id)))?.config).toEqual({ secret: 'alice' });
  });

  it('when the request role writes, then it can neither create rows for another user nor move status, nor change or delete events and messages', async () => {
    await expect(asUser(bob.id, `insert into agents (user_id, name, model, status) values ($1, 'x', 'm', 'running')`, [alice.id])).rejects.toThrow(/row-level security/);
    await expect(asUser(alice.id, `insert into agents (user_id, name, model, status) values ($1, 'x', 'm', 'running')`, [alice.id])).rejects.toThrow(/row-level security/);
    await expect(asUser(alice.id, `update agents set status = 'running'`)).rejects.toThrow(/permission denied/);
    // removing an agent (migration 0080, docs/decisions/0280): one's own only; bob's delete reaches nothing of alice's
    expect((await asUser(bob.id, `delete from agents`)).rowCount).toBe(0);
    expect((await asUser(alice.id, `delete from agents`)).rowCount).toBe(1);
    await expect(asUser(alice.id, `update agent_events set kind = 'crashed'`)).rejects.toThrow(/permission denied/);
    await expect(asUser(alice.id, `delete from agent_events`)).rejects.toThrow(/permission denied/);
    await expect(asUser(alice.id, `update agent_messages set content = 'x'`)).rejects.toThrow(/permission denied/);
    await expect(asUser(alice.id, `delete from agent_messages`)).rejects.toThrow(/permission denied/);
    // the first agent's provisioning makes its user's instance row (migration 0060): never another user's
    await expect(asUser(bob.id, `insert into instances (user_id, status, subdomain, url, plan, runtime_version, gateway_token_key_id, gateway_token_sealed, gateway_token_hash) values ($1, 'running', 's', 'u', 'p', 'v', 'k', '\\x01', '\\x03')`, [alice.id])).rejects.toThrow(/row-level security/);
    // an event naming alice's agent under bob's id breaks the (agent, owner) reference
    await expect(asUser(bob.id, `insert into agent_events (agent_id, user_id, kind) values ($1, $2, 'crashed')`, [aliceAgent.id, bob.id])).rejects.toThrow(/foreign key/);
    await expect(asUser(bob.id, `insert into agent_messages (agent_id, user_id, role, content) values ($1, $2, 'user', 'x')`, [randomUUID(), bob.id])).rejects.toThrow(/foreign key/);
  });

  it('when the request role reads its instance, then the gateway token columns are refused', async () => {
    expect((await asUser(alice.id, `select user_id, status, subdomain, plan from instances`)).rows).toEqual([{ user_id: alice.id, status: 'running', subdomain: 'sub-a', plan: 'solo' }]);
    await expect(asUser(alice.id, `select gateway_token_sealed from instances`)).rejects.toThrow(/permission denied/);
    await expect(asUser(alice.id, `select gateway_token_hash from instances`)).rejects.toThrow(/permission denied/);
  });

  it('when the system role works, then it moves only an agent\'s status and appends events, and deletes only what retention names', async () => {
    await expect(pools.system.query(`update agents set config = '{}'`)).rejects.toThrow(/permission denied/);
    await expect(pools.system.query(`delete from agents`)).rejects.toThrow(/permission denied/);
    // the retention jobs may delete message events and answered mailbox rows (decision 0466), nothing else
    await pools.owner.query(`insert into agent_events (agent_id, user_id, kind) values ($1, $2, 'message_answered')`, [aliceAgent.id, alice.id]);
    const kinds = async () => (await pools.owner.query(`select kind from agent_events where agent_id = $1 order by kind`, [aliceAgent.id])).rows.map((r) => r.kind);
    const kept = (await kinds()).filter((k: string) => k !== 'message_answered');
    expect(kept.length).toBeGreaterThan(0);
    expect((await pools.system.query(`delete from agent_events where agent_id = $1`, [aliceAgent.id])).rowCount).toBe(1);
    expect(await kinds()).toEqual(kept);
    await expect(pools.system.query(`update agent_events set reason = 'x'`)).rejects.toThrow(/permission denied/);
    await expect(pools.system.query(`delete from instances`)).rejects.toThrow(/permission denied/);
  });
});
