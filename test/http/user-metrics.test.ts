import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SampleInstances } from '../../src/application/metrics/sample-instances.use-case.js';
import { bucketPlan } from '../../src/domain/metrics/metrics-range.js';
import { bearer, call, signUpAndIn, signUpVerifiedAndIn, uniqueEmail, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * /api/metrics/:userId/{historical,performance,summary}: the user's own figures (or an admin's
 * view of anyone's) computed from rows inserted here, exactly; another user's → 404.
 */
const ADMIN = uniqueEmail('metrics-admin');
// no worker runs here: an instance command is never answered (bounded by INSTANCE_COMMAND_TIMEOUT_MS)
const t = await startTestApp({ env: { ADMIN_EMAILS: ADMIN, INSTANCE_COMMAND_TIMEOUT_MS: '300' } });
const { app } = t;
const owner = t.infra.pools.owner;
const admin = await signUpVerifiedAndIn(app, owner, { email: ADMIN });
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const get = (u: SignedIn, url: string) => call(app, { method: 'GET', url, headers: { cookie: u.cookie } });
async function agentOf(userId: string) {
  return (await owner.query(`insert into agents (user_id, name, model, status) values ($1, 'M', 'm', 'running') returning id`, [userId])).rows[0].id as string;
}
async function message(agentId: string, userId: string, at: Date) {
  return (await owner.query(`insert into agent_messages (agent_id, user_id, role, content, created_at) values ($1, $2, 'user', 'x', $3) returning id`, [agentId, userId, at])).rows[0].id as string;
}
async function mailbox(agentId: string, userId: string, status: 'answered' | 'failed', finishedAt: Date) {
  const id = await message(agentId, userId, finishedAt);
  await owner.query(`insert into agent_mailbox (message_id, agent_id, user_id, status, finished_at) values ($1, $2, $3, $4, $5)`, [id, agentId, userId, status, finishedAt]);
}
async function sample(userId: string, at: Date, cpu: number, memory: number) {
  await owner.query(`insert into instance_samples (user_id, sampled_at, cpu_percent, memory_percent, rss_bytes) values ($1, $2, $3, $4, 1000)`, [userId, at, cpu, memory]);
}

describe('GET /api/metrics/:userId/historical', () => {
  it('when samples, messages and failures exist, then each bucket holds their averages and counts, zero elsewhere', async () => {
    const u = await signUpAndIn(app);
    const agent = await agentOf(u.id);
    const plan = bucketPlan('24h', new Date());
    const current = new Date(plan.from.getTime() + 23 * HOUR);
    const previous = new Date(plan.from.getTime() + 22 * HOUR);
    await sample(u.id, new Date(current.getTime() + 60_000), 10, 40);
    await sample(u.id, new Date(current.getTime() + 120_000), 30, 60);
    await sample(u.id, new Date(previous.getTime() + 60_000), 50, 20);
    await sample(u.id, new Date(plan.from.getTime() - 60_000), 99, 99); // before the range
    for (let i = 0; i < 3; i++) await message(agent, u.id, new Date(current.getTime() + 1000 * i));
    await mailbox(agent, u.id, 'failed', new Date(previous.getTime() + 5000)); // one message, one error

    const res = await get(u, `/api/metrics/${u.id}/historical`);
    expect(res.status).toBe(200);
    expect(res.body.userId).toBe(u.id);
    expect(res.body.timeRange).toBe('24h');
    expect(res.body.metrics).toHaveLength(24);
    expect(res.body.metrics[0]).toEqual({ timestamp: plan.from.toISOString(), cpu: 0, memory: 0, messages: 0, errors: 0 });
    expect(res.body.metrics[22]).toEqual({ timestamp: previous.toISOString(), cpu: 50, memory: 20, messages: 1, errors: 1 });
    expect(res.body.metrics[23]).toEqual({ timestamp: current.toISOString(), cpu: 20, memory: 50, messages: 3, errors: 0 });
    expect(res.body.metrics.slice(0, 22).every((b: { cpu: number; messages: number }) => b.cpu === 0 && b.messages === 0)).toBe(true);
    // averages: of the samples in range; messages and errors per bucket
    expect(res.body.averages).toEqual({ cpu: 30, memory: 40, messages: Math.round((4 / 24) * 100) / 100, errors: Math.round((1 / 24) * 100) / 100 });

    const week = await get(u, `/api/metrics/${u.id}/historical?range=7d`);
    expect(week.status).toBe(200);
    expect(week.body.timeRange).toBe('7d');
    expect(week.body.metrics).toHaveLength(28);
    expect(week.body.metrics.reduce((n: number, b: { messages: number }) => n + b.messages, 0)).toBe(4);
    const month = await get(u, `/api/metrics/${u.id}/historical?range=30d`);
    expect(month.body.metrics).toHaveLength(30);
    expect(month.body.averages.cpu).toBeCloseTo((10 + 30 + 50 + 99) / 4, 2);
  });

  it('when the range is not one of 24h, 7d, 30d, then 400 VALIDATION_ERROR', async () => {
    const u = await signUpAndIn(app);
    for (const range of ['1h', '24H', '', '7d;drop']) {
      const res = await get(u, `/api/metrics/${u.id}/historical?range=${encodeURIComponent(range)}`);
      expect({ range, status: res.status, code: res.body.code }).toEqual({ range, status: 400, code: 'VALIDATION_ERROR' });
    }
    expect((await get(u, `/api/metrics/not-a-uuid/historical`)).status).toBe(400);
  });
});

describe('GET /api/metrics/:userId/performance', () => {
  it('when samples, answers and failures exist, then the latest sample, the error rate and the mean answer time', async () => {
    const u = await signUpAndIn(app);
    const agent = await agentOf(u.id);
    const now = Date.now();
    await sample(u.id, new Date(now - 120_000), 80, 80);
    await sample(u.id, new Date(now - 60_000), 12.5, 33.25);
    for (let i = 0; i < 3; i++) await mailbox(agent, u.id, 'answered', new Date(now - 1000 * i));
    await mailbox(agent, u.id, 'failed', new Date(now - 5000));
    await mailbox(agent, u.id, 'failed', new Date(now - 2 * DAY)); // older than a day
    for (const ms of [100, 200]) await owner.query(`insert into agent_events (agent_id, user_id, kind, duration_ms) values ($1, $2, 'message_answered', $3)`, [agent, u.id, ms]);
    const res = await get(u, `/api/metrics/${u.id}/performance`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ cpu: 12.5, memory: 33.25, errorRate: 25, responseTime: 150 });
  });

  it('when nothing was recorded, then every figure is 0', async () => {
    const u = await signUpAndIn(app);
    expect((await get(u, `/api/metrics/${u.id}/performance`)).body).toEqual({ cpu: 0, memory: 0, errorRate: 0, responseTime: 0 });
  });
});

describe('GET /api/metrics/:userId/summary', () => {
  it('when escrows, royalties, fans and installs exist, then the summary figures come from them, month over month', async () => {
    const u = await signUpAndIn(app);
    const agent = await agentOf(u.id);
    const now = new Date();
    const thisMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 0, 0, 1));
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
    const escrow = (booking: string, cents: number, releasedAt: Date | null) =>
      owner.query(
        `insert into skill_escrows (user_id, booking_id, guarantee_cents, backend_cents, deposit_cents, amount_cents, status, released_at) values ($1, $2, 0, 0, 0, $3, $4, $5)`,
        [u.id, booking, cents, releasedAt ? 'released' : 'held', releasedAt],
      );
    await escrow('b1', 10_000, thisMonth);
    await escrow('b2', 5_000, lastMonth);
    await escrow('b3', 7_000, null);
    await owner.query(`insert into skill_royalties (user_id, source, amount_cents, created_at) values ($1, 'radio', 2500, $2)`, [u.id, thisMonth]);
    const fan = (shows: number, purchases: number, streams: number, at: Date) =>
      owner.query(`insert into skill_fans (user_id, name, shows_attended, purchases, streams, created_at) values ($1, 'F', $2, $3, $4, $5)`, [u.id, shows, purchases, streams, at]);
    await fan(5, 0, 0, thisMonth); // 50: superfan
    await fan(0, 1, 0, thisMonth); // 5: casual
    await fan(0, 0, 50, thisMonth); // 0: dormant
    await fan(2, 0, 0, lastMonth); // 20: engaged, counted as casual
    const install = (skill: string, enabled: boolean, at: Date) =>
      owner.query(`insert into skill_installs (agent_id, user_id, skill_id, version, enabled, installed_at) values ($1, $2, $3, '1.0.0', $4, $5)`, [agent, u.id, skill, enabled, at]);
    await install('email', true, thisMonth);
    await install('calendar', false, thisMonth);
    await install('notes', true, lastMonth);

    const res = await get(u, `/api/metrics/${u.id}/summary`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      revenue: { month: '$125.00', total: '$175.00', change: '+150%' },
      bookings: { completed: 2, pending: 1, conversion: '66.67%' },
      fans: { total: 4, active: 3, growth: '+200%', segmentation: { superfans: 1, casual: 2, new: 3 } },
      streams: { monthlyListeners: 0, monthlyStreams: 0, growth: '0%' },
      skills: { active: 2, total: 3, growth: '+100%' },
    });
  });

  it('when the user has no stored skill data, then zeros and "0%", never invented figures', async () => {
    const u = await signUpAndIn(app);
    expect((await get(u, `/api/metrics/${u.id}/summary`)).body).toEqual({
      revenue: { month: '$0.00', total: '$0.00', change: '0%' },
      bookings: { completed: 0, pending: 0, conversion: '0%' },
      fans: { total: 0, active: 0, growth: '0%', segmentation: { superfans: 0, casual: 0, new: 0 } },
      streams: { monthlyListeners: 0, monthlyStreams: 0, growth: '0%' },
      skills: { active: 0, total: 0, growth: '0%' },
    });
  });
});

describe('who may read /api/metrics/:userId/*', () => {
  it('when another user asks for someone\'s figures, then 404 and nothing of theirs; an admin reads anyone\'s; an unknown user is 404 to an admin', async () => {
    const a = await signUpAndIn(app);
    const b = await signUpAndIn(app);
    await sample(a.id, new Date(), 42, 42);
    for (const path of ['historical', 'performance', 'summary']) {
      const res = await get(b, `/api/metrics/${a.id}/${path}`);
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 404, code: 'NOT_FOUND' });
      expect(JSON.stringify(res.body)).not.toContain('42');
      expect((await get(admin, `/api/metrics/${a.id}/${path}`)).status).toBe(200);
      expect((await get(admin, `/api/metrics/${randomUUID()}/${path}`)).status).toBe(404);
      expect((await call(app, { method: 'GET', url: `/api/metrics/${a.id}/${path}` })).status).toBe(401);
    }
    expect((await get(admin, `/api/metrics/${a.id}/performance`)).body.cpu).toBe(42);
    // row-level security: b's own figures never include a's samples
    expect((await get(b, `/api/metrics/${b.id}/performance`)).body.cpu).toBe(0);
    expect((await get(b, `/api/metrics/${b.id}/historical`)).body.averages.cpu).toBe(0);
  });

  it('when the caller uses an API key or a JWT, then the same figures answer', async () => {
    const u = await signUpAndIn(app);
    await sample(u.id, new Date(), 7, 8);
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'metrics' } })).body.key as string;
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: u.headers })).body.token as string;
    for (const token of [key, jwt]) {
      const res = await call(app, { method: 'GET', url: `/api/metrics/${u.id}/performance`, headers: bearer(token) });
      expect(res.body).toMatchObject({ cpu: 7, memory: 8 });
    }
  });
});

describe('the sampling job when a runtime does not answer', () => {
  it('when the worker owning a running instance does not answer in time, then no sample is invented, the minute is still marked up and the job ends', async () => {
    const u = await signUpAndIn(app);
    await owner.query(
      `insert into instances (user_id, status, started_at, subdomain, url, plan, runtime_version, gateway_token_key_id, gateway_token_sealed, gateway_token_hash)
       values ($1, 'running', now(), $2, 'http://x', 'solo', '1', 'k', '\\x00', $3)`,
      [u.id, `u-${u.id.slice(0, 8)}`, Buffer.from(u.id)],
    );
    const started = Date.now();
    const result = await t.container.resolve(SampleInstances).execute();
    expect(result.sampled).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await owner.query(`select count(*)::int as n from instance_samples where user_id = $1`, [u.id])).rows[0].n).toBe(0);
    expect((await owner.query(`select count(*)::int as n from platform_ticks`)).rows[0].n).toBe(1);
    // the command the job gave up on was withdrawn, not left for a worker to run later
    expect((await owner.query(`select count(*)::int as n from instance_commands where user_id = $1`, [u.id])).rows[0].n).toBe(0);
  });
});
