import { describe, expect, it } from 'vitest';
import { subscribe } from '../support/ai/chat-fixtures.js';
import { bearer, call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * /api/agents/:id/schedules (CONTRACT.md "scheduled runs"): what is stored, what is refused and
 * that nothing is stored when it is, another user's agent, the plan's bound under concurrent
 * creation, and the schedules going with their agent. The runs themselves: test/integration/agents/agent-schedule-runs.test.ts.
 */
const { app, infra } = await startTestApp({ env: { RATE_LIMIT_AGENTS: '100000' } });
const owner = infra.pools.owner;

/** A subscribed user with an agent row (no runtime: nothing here runs a tick). */
async function userWithAgent(plan = 'label', status = 'running') {
  const user = await signUpAndIn(app);
  if (plan) await subscribe(owner, user.id, plan);
  const agentId = (await owner.query(`insert into agents (user_id, name, model, status) values ($1, 'Scheduled', 'm', $2) returning id`, [user.id, status])).rows[0].id as string;
  return { user, agentId };
}
const create = (u: SignedIn, agentId: string, payload: object, headers: Record<string, string> = u.headers) =>
  call(app, { method: 'POST', url: `/api/agents/${agentId}/schedules`, headers, payload });
const list = (u: SignedIn, agentId: string) => call(app, { method: 'GET', url: `/api/agents/${agentId}/schedules`, headers: { cookie: u.cookie } });
const remove = (u: SignedIn, agentId: string, scheduleId: string) => call(app, { method: 'DELETE', url: `/api/agents/${agentId}/schedules/${scheduleId}`, headers: u.headers });
const stored = async (agentId: string) => (await owner.query(`select id, cron, timezone, content, next_run_at from agent_schedules where agent_id = $1 order by created_at`, [agentId])).rows;

describe('creating and listing schedules', () => {
  it('when a cron with a timezone is posted, then 201 with the schedule and its next tick read in that zone, and GET lists exactly the contract fields', async () => {
    const { user, agentId } = await userWithAgent();
    const res = await create(user, agentId, { cron: '30 9 * * *', timezone: 'Europe/Berlin', content: 'Morning report, please' });
    expect(res.status).toBe(201);
    const s = res.body.schedule;
    expect(s).toMatchObject({ id: expect.any(String), cron: '30 9 * * *', timezone: 'Europe/Berlin', content: 'Morning report, please' });
    const next = new Date(s.nextRunAt);
    // 09:30 on Berlin's clock, within the next day
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' }).format(next)).toBe('09:30');
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime()).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);

    const listed = await list(user, agentId);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ schedules: [{ id: s.id, cron: '30 9 * * *', timezone: 'Europe/Berlin', content: 'Morning report, please', nextRunAt: s.nextRunAt }] });
  });

  it('when no timezone is given, then UTC; a zone is stored under its IANA name; an alias is a cron', async () => {
    const { user, agentId } = await userWithAgent();
    const a = (await create(user, agentId, { cron: '*/15 * * * *', content: 'a' })).body.schedule;
    expect(a.timezone).toBe('UTC');
    expect(new Date(a.nextRunAt).getUTCMinutes() % 15).toBe(0);
    expect((await create(user, agentId, { cron: '0 8 * * 1-5', timezone: 'utc', content: 'b' })).body.schedule.timezone).toBe('UTC');
    const daily = (await create(user, agentId, { cron: '@daily', timezone: 'America/New_York', content: 'c' })).body.schedule;
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(daily.nextRunAt))).toBe('00:00');
    expect((await list(user, agentId)).body.schedules.map((x: { content: string }) => x.content)).toEqual(['a', 'b', 'c']);
  });

  it('when the cron, the timezone or the content is wrong, then 400 VALIDATION_ERROR naming the field, and nothing is stored', async () => {
    const { user, agentId } = await userWithAgent();
    const cases: [object, string][] = [
      [{ cron: 'every day', content: 'x' }, 'body/cron'],
      [{ cron: '61 * * * *', content: 'x' }, 'body/cron'],
      [{ cron: '* * * * * *', content: 'x' }, 'body/cron'], // a seconds field: at most once a minute
      [{ cron: '0 9 30 2 *', content: 'x' }, 'body/cron'], // never: February has no 30th
      [{ cron: '@reboot', content: 'x' }, 'body/cron'],
      [{ cron: '* * * *', content: 'x' }, 'body/cron'],
      [{ cron: '0 9 * * *', timezone: 'Mars/Olympus_Mons', content: 'x' }, 'body/timezone'],
      [{ cron: '0 9 * * *', timezone: '+02:00', content: 'x' }, 'body/timezone'],
      [{ cron: '0 9 * * *', content: '' }, 'body/content'],
      [{ cron: '0 9 * * *', content: 'x'.repeat(32_001) }, 'body/content'],
      [{ cron: '0 9 * * *' }, 'body/content'],
      [{ content: 'x' }, 'body/cron'],
      [{ cron: 5, content: 'x' }, 'body/cron'],
    ];
    for (const [payload, path] of cases) {
      const res = await create(user, agentId, payload);
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.body.details)).toContain(path);
    }
    expect(await stored(agentId)).toEqual([]);
  });
});

describe('another user, and ids that name nothing', () => {
  it("when user B creates, lists, deletes or reads the runs of A's agent's schedules, then 404 and A's schedules are as they were", async () => {
    const a = await userWithAgent();
    const b = await userWithAgent();
    const sid = (await create(a.user, a.agentId, { cron: '0 * * * *', content: 'hourly' })).body.schedule.id;
    const before = await stored(a.agentId);
    expect((await create(b.user, a.agentId, { cron: '* * * * *', content: 'intruder' })).status).toBe(404);
    expect((await list(b.user, a.agentId)).status).toBe(404);
    expect((await remove(b.user, a.agentId, sid)).status).toBe(404);
    // B's own agent in the path, A's schedule id: not B's schedule either
    expect((await remove(b.user, b.agentId, sid)).status).toBe(404);
    expect((await call(app, { method: 'GET', url: `/api/agents/${a.agentId}/schedules/${sid}/runs`, headers: { cookie: b.user.cookie } })).status).toBe(404);
    expect((await call(app, { method: 'GET', url: `/api/agents/${b.agentId}/schedules/${sid}/runs`, headers: { cookie: b.user.cookie } })).status).toBe(404);
    expect(await stored(a.agentId)).toEqual(before);
    expect(await stored(b.agentId)).toEqual([]);
  });

  it('when the agent or schedule id is not a uuid, then 404 (as another user\'s), never 500', async () => {
    const { user, agentId } = await userWithAgent();
    expect((await create(user, 'not-a-uuid', { cron: '* * * * *', content: 'x' })).status).toBe(404);
    expect((await list(user, 'not-a-uuid')).status).toBe(404);
    expect((await remove(user, agentId, 'not-a-uuid')).status).toBe(404);
  });

  it('when an API key whose models list does not name the agent is used, then 403 KEY_MODEL_NOT_ALLOWED and nothing is stored; a key naming it may', async () => {
    const { user, agentId } = await userWithAgent();
    const other = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'other', models: ['openai/gpt-4o-mini'] } })).body.key as string;
    const naming = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'naming', models: [`agent/${agentId}`] } })).body.key as string;
    const refused = await create(user, agentId, { cron: '* * * * *', content: 'x' }, bearer(other));
    expect(refused).toMatchObject({ status: 403, body: { code: 'KEY_MODEL_NOT_ALLOWED' } });
    expect(await stored(agentId)).toEqual([]);
    expect((await create(user, agentId, { cron: '* * * * *', content: 'x' }, bearer(naming))).status).toBe(201);
  });
});

describe("the plan's bound", () => {
  it('when ten schedules are created at once on a plan allowing five per agent, then exactly five are stored and the others answer 429 SCHEDULE_LIMIT_REACHED', async () => {
    const { user, agentId } = await userWithAgent('label');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => create(user, agentId, { cron: '0 * * * *', content: `n${i}` })));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = answers.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual(refused.map(() => [429, 'SCHEDULE_LIMIT_REACHED']));
    expect(refused[0]!.body).toMatchObject({ current: 5, limit: 5 });
    expect(await stored(agentId)).toHaveLength(5);
    // per agent: the user's other agent has its own five
    const second = (await owner.query(`insert into agents (user_id, name, model, status) values ($1, 'Second', 'm', 'running') returning id`, [user.id])).rows[0].id as string;
    expect((await create(user, second, { cron: '0 * * * *', content: 'own' })).status).toBe(201);
  });

  it('when the user has no subscribed plan, then 402 SUBSCRIPTION_REQUIRED and nothing is stored', async () => {
    const { user, agentId } = await userWithAgent('');
    expect(await create(user, agentId, { cron: '0 * * * *', content: 'x' })).toMatchObject({ status: 402, body: { code: 'SUBSCRIPTION_REQUIRED' } });
    expect(await stored(agentId)).toEqual([]);
  });
});

describe('removing', () => {
  it('when a schedule is deleted, then 200, it is gone from the list, and deleting it again is 404', async () => {
    const { user, agentId } = await userWithAgent();
    const keep = (await create(user, agentId, { cron: '0 * * * *', content: 'keep' })).body.schedule;
    const drop = (await create(user, agentId, { cron: '0 * * * *', content: 'drop' })).body.schedule;
    expect(await remove(user, agentId, drop.id)).toMatchObject({ status: 200, body: { success: true } });
    expect((await list(user, agentId)).body.schedules.map((s: { id: string }) => s.id)).toEqual([keep.id]);
    expect((await remove(user, agentId, drop.id)).status).toBe(404);
  });

  it('when the agent is removed, then its schedules and their runs go with it', async () => {
    const { user, agentId } = await userWithAgent();
    const sid = (await create(user, agentId, { cron: '0 * * * *', content: 'x' })).body.schedule.id;
    await owner.query(`insert into agent_schedule_runs (schedule_id, due_at, user_id, outcome, reason, ran_at) values ($1, now(), $2, 'skipped', 'the agent is stopped', now())`, [sid, user.id]);
    expect((await call(app, { method: 'POST', url: `/api/agents/${agentId}/remove`, headers: user.headers })).status).toBe(200);
    expect(await stored(agentId)).toEqual([]);
    expect((await owner.query(`select 1 from agent_schedule_runs where schedule_id = $1`, [sid])).rows).toEqual([]);
    expect((await list(user, agentId)).status).toBe(404);
  });
});
