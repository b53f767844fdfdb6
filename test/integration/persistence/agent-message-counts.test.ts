import { describe, expect, it } from 'vitest';
import { signUpAndIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/** A page's `total` is the agent's count kept by the trigger: equal to count(*) through stores, deletions and removal. */
const t = await startTestApp();
const owner = t.infra.pools.owner;
const user = await signUpAndIn(t.app);
const other = await signUpAndIn(t.app);
const agentOf = async (userId: string) => (await owner.query(`insert into agents (user_id, name, model, status) values ($1, 'Counted', 'm', 'running') returning id`, [userId])).rows[0].id as string;
const store = (agentId: string, userId: string, n: number) =>
  owner.query(`insert into agent_messages (agent_id, user_id, role, content) select $1, $2, 'user', 'm' || i from generate_series(1, $3::int) i`, [agentId, userId, n]);
const total = async (agentId: string, cookie: string) => (await t.app.inject({ method: 'GET', url: `/api/agents/${agentId}/messages?limit=1`, headers: { cookie } }));
const counted = async (agentId: string) => (await owner.query(`select messages from agent_message_counts where agent_id = $1`, [agentId])).rows[0]?.messages as string | undefined;

describe('agent message counts', () => {
  it('a page says how many messages the agent has, as stores and deletions go, and nothing for an agent without any', async () => {
    const agentId = await agentOf(user.id);
    expect((await total(agentId, user.cookie)).json()).toMatchObject({ total: 0 });
    await store(agentId, user.id, 7);
    expect((await total(agentId, user.cookie)).json()).toMatchObject({ total: 7 });
    await owner.query(`delete from agent_messages where id in (select id from agent_messages where agent_id = $1 limit 2)`, [agentId]);
    expect((await total(agentId, user.cookie)).json()).toMatchObject({ total: 5 });
    const exact = (await owner.query(`select count(*)::int n from agent_messages where agent_id = $1`, [agentId])).rows[0].n;
    expect(exact).toBe(5);
  });

  it("another user's agent is 404, and its count is not readable by the row-level policy", async () => {
    const agentId = await agentOf(other.id);
    await store(agentId, other.id, 3);
    expect((await total(agentId, user.cookie)).statusCode).toBe(404);
    const c = await owner.connect();
    try {
      await c.query('begin');
      await c.query('set local role app_user');
      await c.query(`select set_config('app.user_id', $1, true)`, [user.id]);
      expect((await c.query(`select messages from agent_message_counts where agent_id = $1`, [agentId])).rows).toEqual([]);
      await c.query('rollback');
    } finally {
      c.release();
    }
  });

  it('an agent removed takes its count with it', async () => {
    const agentId = await agentOf(user.id);
    await store(agentId, user.id, 4);
    expect(await counted(agentId)).toBe('4');
    await owner.query(`delete from agents where id = $1`, [agentId]);
    expect(await counted(agentId)).toBeUndefined();
  });
});
