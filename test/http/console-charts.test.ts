import { describe, expect, it } from 'vitest';
import { SendDueHeartbeats } from '../../src/application/heartbeat/send-due-heartbeats.use-case.js';
import { subscribe } from '../support/ai/chat-fixtures.js';
import { call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * The two reads behind the console's charts: GET /api/billing/usage (units per UTC day) and
 * GET /api/agents/:id/activity (an agent's events and messages per hour), from seeded rows.
 */
const t = await startTestApp();
const { app } = t;
const owner = t.infra.pools.owner;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const get = (user: SignedIn | null, url: string) => call(app, { method: 'GET', url, headers: user ? user.headers : {} });
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

async function agentOf(user: SignedIn): Promise<string> {
  return (await owner.query(`insert into agents (user_id, name, model, status) values ($1, 'Ada', 'openai/gpt-4o-mini', 'running') returning id`, [user.id])).rows[0].id;
}

async function event(agentId: string, userId: string, kind: string, hoursAgo: number, reason: string | null = null, durationMs: number | null = null) {
  await owner.query(`insert into agent_events (agent_id, user_id, kind, reason, duration_ms, at) values ($1, $2, $3, $4, $5, $6)`, [
    agentId, userId, kind, reason, durationMs, new Date(Date.now() - hoursAgo * HOUR_MS),
  ]);
}

describe('GET /api/billing/usage', () => {
  it('gives every day of the window, oldest first, with the stored units and the plan allowance; another user sees only their own', async () => {
    const user = await signUpAndIn(app);
    const other = await signUpAndIn(app);
    await subscribe(owner, user.id, 'solo');
    await owner.query(`insert into daily_usage (user_id, day, used_units, credit_units) values ($1, $2, 120, 0), ($1, $3, 900, 300), ($4, $2, 7, 0)`, [user.id, day(2), day(0), other.id]);
    const r = await get(user, '/api/billing/usage?days=7');
    expect(r.status).toBe(200);
    expect(r.body.days).toHaveLength(7);
    expect(r.body.days[0].day).toBe(day(6));
    expect(r.body.days[6]).toEqual({ day: day(0), usedUnits: 900, creditUnits: 300 });
    expect(r.body.days[4]).toEqual({ day: day(2), usedUnits: 120, creditUnits: 0 });
    expect(r.body.days.filter((d: { usedUnits: number }) => d.usedUnits > 0)).toHaveLength(2);
    expect(r.body.dailyUnits).toBeGreaterThan(0);
    expect(r.body.unitsPerCredit).toBe(100);
    // the default window is 30 days
    expect((await get(user, '/api/billing/usage')).body.days).toHaveLength(30);
    const theirs = await get(other, '/api/billing/usage?days=7');
    expect(theirs.body.days[4].usedUnits).toBe(7);
    expect(theirs.body.days[6].usedUnits).toBe(0);
  });

  it('refuses a window that is not 1 to 90 whole days (400), and answers 401 without a session', async () => {
    const user = await signUpAndIn(app);
    for (const days of ['0', '91', 'x', '2.5']) expect((await get(user, `/api/billing/usage?days=${days}`)).status).toBe(400);
    expect((await get(null, '/api/billing/usage')).status).toBe(401);
  });
});

describe('GET /api/agents/:id/activity', () => {
  it("lists the agent's events newest first (answered messages counted per hour, not listed) with every hour of the window", async () => {
    const user = await signUpAndIn(app);
    const agentId = await agentOf(user);
    const otherAgent = await agentOf(user);
    await event(agentId, user.id, 'provisioned', 5.5, null, 1200);
    await event(agentId, user.id, 'started', 5.4);
    // the two answers and the failure 10, 20 and 30 minutes into the clock hour three hours back,
    // so the three share one bucket whatever the minute the test runs at
    const busyHour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 3 * HOUR_MS;
    const hoursAgo = (minutes: number) => (Date.now() - busyHour - minutes * 60_000) / HOUR_MS;
    await event(agentId, user.id, 'message_answered', hoursAgo(10), null, 800);
    await event(agentId, user.id, 'message_answered', hoursAgo(20), null, 900);
    await event(agentId, user.id, 'message_failed', hoursAgo(30), 'PROVIDER_ERROR');
    await event(agentId, user.id, 'crashed', 2.4, 'exit code 1');
    await event(agentId, user.id, 'heartbeat_skipped', 1.5, 'the agent is stopped');
    await event(agentId, user.id, 'message_answered', 30); // outside the 24 h window
    await event(otherAgent, user.id, 'stopped', 1);

    const r = await get(user, `/api/agents/${agentId}/activity`);
    expect(r.status).toBe(200);
    expect(r.body.events.map((e: { kind: string }) => e.kind)).toEqual(['heartbeat_skipped', 'crashed', 'message_failed', 'started', 'provisioned']);
    expect(r.body.events[1]).toMatchObject({ kind: 'crashed', reason: 'exit code 1', durationMs: null });
    expect(r.body.events[4]).toMatchObject({ durationMs: 1200 });
    expect(r.body.messagesPerHour).toHaveLength(24);
    expect(new Date(r.body.to).getTime() - new Date(r.body.from).getTime()).toBe(24 * HOUR_MS);
    const totals = r.body.messagesPerHour.reduce((n: { answered: number; failed: number }, h: { answered: number; failed: number }) => ({ answered: n.answered + h.answered, failed: n.failed + h.failed }), { answered: 0, failed: 0 });
    expect(totals).toEqual({ answered: 2, failed: 1 });
    // the hour three hours back holds the two answers and the failure
    const busy = r.body.messagesPerHour.find((h: { answered: number }) => h.answered > 0);
    expect(busy).toMatchObject({ answered: 2, failed: 1 });
    expect(new Date(busy.hour).getTime()).toBe(busyHour);

    const week = await get(user, `/api/agents/${agentId}/activity?hours=48`);
    expect(week.body.messagesPerHour).toHaveLength(48);
    expect(week.body.messagesPerHour.reduce((n: number, h: { answered: number }) => n + h.answered, 0)).toBe(3);
  });

  it('shows the heartbeats sent to the agent and the skill calls its model made (skill, action, outcome only)', async () => {
    const user = await signUpAndIn(app);
    const agentId = await agentOf(user);
    // a skill call as the runtime tools route stores it (test/integration/agents/agent-tools.test.ts performs real ones)
    await event(agentId, user.id, 'skill_call', 0.5, 'calendar.list: ok', 40);
    // a real heartbeat run: the user's heartbeat is due and the agent is running
    expect((await call(app, { method: 'POST', url: '/api/heartbeat', headers: user.headers, payload: { frequency: '5m', enabled: true } })).status).toBe(200);
    await owner.query(`update heartbeats set next_heartbeat = now() - interval '1 second' where user_id = $1`, [user.id]);
    expect(await t.container.resolve(SendDueHeartbeats).execute()).toMatchObject({ sent: 1, skipped: 0 });

    const r = await get(user, `/api/agents/${agentId}/activity`);
    expect(r.status).toBe(200);
    expect(r.body.events).toEqual([
      { kind: 'heartbeat', reason: null, durationMs: null, at: expect.any(String) },
      { kind: 'skill_call', reason: 'calendar.list: ok', durationMs: 40, at: expect.any(String) },
    ].map((e) => expect.objectContaining(e)));
  });

  it("answers 404 for another user's agent and an unknown id, 400 for a bad window, 401 without a session", async () => {
    const user = await signUpAndIn(app);
    const other = await signUpAndIn(app);
    const agentId = await agentOf(user);
    await event(agentId, user.id, 'crashed', 1, 'secret reason');
    const theirs = await get(other, `/api/agents/${agentId}/activity`);
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(theirs.body)).not.toContain('secret reason');
    expect((await get(user, '/api/agents/00000000-0000-4000-8000-000000000000/activity')).status).toBe(404);
    expect((await get(user, '/api/agents/not-a-uuid/activity')).status).toBe(404);
    for (const hours of ['0', '169', 'x']) expect((await get(user, `/api/agents/${agentId}/activity?hours=${hours}`)).status).toBe(400);
    expect((await get(null, `/api/agents/${agentId}/activity`)).status).toBe(401);
  });
});
