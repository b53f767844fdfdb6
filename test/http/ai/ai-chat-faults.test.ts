import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeFleet } from '../../support/ai/fake-ai-fleet.js';
import { chat, hi, patientBreakers, subscribe, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { signUpAndIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

const fleet = await startFakeFleet();
afterAll(() => fleet.close());
const { app, container, infra } = await startTestApp({ env: { ...fleet.env, RATE_LIMIT_CHAT: '10000' }, override: patientBreakers });
const owner = infra.pools.owner;

beforeEach(() => {
  fleet.setAll({ kind: 'reply' });
  for (const s of Object.values(fleet.servers)) s.requests.length = 0;
});

async function subscriber(plan: string) {
  const user = await signUpAndIn(app);
  return { user, sub: await subscribe(owner, user.id, plan) };
}

describe('POST /api/ai/chat when providers fail', () => {
  it('a provider answering 500 (and every fallback too): 500 {error, code: PROVIDER_ERROR}, nothing charged', async () => {
    fleet.setAll({ kind: 'error', status: 500 });
    const { user, sub } = await subscriber('network');
    const before = await unitsUsed(container, user.id);
    const res = await chat(app, user, { plan: 'network', subscription: sub, body: { messages: hi, model: 'openai/gpt-4o' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: expect.any(String), code: 'PROVIDER_ERROR', provider: expect.any(String), kind: 'http', status: 500 });
    expect(await unitsUsed(container, user.id)).toEqual(before);
    // nothing of the vendor's text or keys reaches the client
    expect(JSON.stringify(res.body)).not.toMatch(/fleet-key|internal error has occurred|Sorry/);
  });

  it('falls back to the next model of the plan when the first provider fails', async () => {
    fleet.server('openrouter').setBehaviour({ kind: 'error', status: 503 });
    const { user, sub } = await subscriber('label');
    const res = await chat(app, user, { plan: 'label', subscription: sub });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ model: 'openai/gpt-4o-mini', provider: 'openai' });
    expect((await unitsUsed(container, user.id)).used).toBe(1);
  });

  it('never falls back to a model the plan does not allow', async () => {
    fleet.server('openrouter').setBehaviour({ kind: 'error', status: 500 });
    fleet.server('openai').setBehaviour({ kind: 'error', status: 500 });
    const { user, sub } = await subscriber('label');
    const res = await chat(app, user, { plan: 'label', subscription: sub });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('PROVIDER_ERROR');
    const tried = fleet.chatRequests();
    expect(tried.map((r) => r.provider).sort()).toEqual(['openai', 'openrouter']);
    expect(tried.map((r) => r.model).sort()).toEqual(['gpt-4o-mini', 'meta-llama/llama-3.3-70b-instruct']);
    expect((await unitsUsed(container, user.id)).used).toBe(0);
  });

  it('a malformed provider answer is a PROVIDER_ERROR too', async () => {
    fleet.setAll({ kind: 'malformed' });
    const { user, sub } = await subscriber('label');
    const res = await chat(app, user, { plan: 'label', subscription: sub });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('PROVIDER_ERROR');
    expect((await unitsUsed(container, user.id)).used).toBe(0);
  });

  it('when the day\'s units and credits are spent, then 429 USAGE_EXHAUSTED and no provider call', async () => {
    const { user, sub } = await subscriber('label');
    await owner.query(`insert into daily_usage (user_id, day, used_units) values ($1, (now() at time zone 'utc')::date, 600)`, [user.id]);
    const res = await chat(app, user, { plan: 'label', subscription: sub });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('USAGE_EXHAUSTED');
    expect(fleet.chatRequests()).toEqual([]);
  });

  it('reserves max_tokens: a request that could outrun the balance is refused up front', async () => {
    const { user, sub } = await subscriber('label');
    await owner.query(`insert into daily_usage (user_id, day, used_units) values ($1, (now() at time zone 'utc')::date, 595)`, [user.id]);
    const big = await chat(app, user, { plan: 'label', subscription: sub, body: { messages: hi, max_tokens: 10_000 } });
    expect(big.status).toBe(429);
    const small = await chat(app, user, { plan: 'label', subscription: sub, body: { messages: hi, max_tokens: 100 } });
    expect(small.status).toBe(200);
    expect((await unitsUsed(container, user.id)).used).toBe(596);
  });
});

describe('POST /api/ai/chat with a slow provider', async () => {
  const slow = await startFakeFleet(['openai']);
  afterAll(() => slow.close());
  const t = await startTestApp({ env: { ...slow.env, AI_TIMEOUT_MS: '300' }, override: patientBreakers });

  it('times out: 500 PROVIDER_ERROR and the reservation released', async () => {
    slow.setAll({ kind: 'slow', delayMs: 5_000 });
    const user = await signUpAndIn(t.app);
    const sub = await subscribe(t.infra.pools.owner, user.id, 'label');
    const started = Date.now();
    const res = await chat(t.app, user, { plan: 'label', subscription: sub, body: { messages: hi, model: 'openai/gpt-4o-mini', max_tokens: 4000 } });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 'PROVIDER_ERROR', kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect((await unitsUsed(t.container, user.id)).used).toBe(0);
    // the adapter gave up on the connection
    await slow.server('openai').lastRequest().closed;
    expect(slow.server('openai').lastRequest().closedByClient).toBe(true);
  });

  it('a streamed call that times out before its first event answers 500 PROVIDER_ERROR as JSON', async () => {
    slow.setAll({ kind: 'slow', delayMs: 5_000 });
    const user = await signUpAndIn(t.app);
    const sub = await subscribe(t.infra.pools.owner, user.id, 'label');
    const res = await chat(t.app, user, { plan: 'label', subscription: sub, body: { messages: hi, model: 'openai/gpt-4o-mini' }, headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('PROVIDER_ERROR');
    expect((await unitsUsed(t.container, user.id)).used).toBe(0);
  });
});

describe('POST /api/ai/chat when no provider is configured', async () => {
  const t = await startTestApp();
  it('answers 503 PROVIDER_UNAVAILABLE and charges nothing', async () => {
    const user = await signUpAndIn(t.app);
    const sub = await subscribe(t.infra.pools.owner, user.id, 'label');
    const res = await chat(t.app, user, { plan: 'label', subscription: sub });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('PROVIDER_UNAVAILABLE');
    expect((await unitsUsed(t.container, user.id)).used).toBe(0);
  });
});

describe('POST /api/ai/chat circuit breaker', async () => {
  const f = await startFakeFleet(['openrouter', 'openai']);
  afterAll(() => f.close());
  // default breaker settings: 5 consecutive failures open a provider's circuit
  const t = await startTestApp({ env: f.env });

  it('after repeated failures stops sending to the broken provider and goes straight to the fallback', async () => {
    f.server('openrouter').setBehaviour({ kind: 'error', status: 500 });
    const user = await signUpAndIn(t.app);
    const sub = await subscribe(t.infra.pools.owner, user.id, 'label');
    for (let i = 0; i < 5; i++) expect((await chat(t.app, user, { plan: 'label', subscription: sub })).body.provider).toBe('openai');
    const sentBefore = f.server('openrouter').requests.length;
    expect(sentBefore).toBe(5);
    const res = await chat(t.app, user, { plan: 'label', subscription: sub });
    expect(res.body.provider).toBe('openai');
    expect(f.server('openrouter').requests.length).toBe(sentBefore);
  });
});

describe('POST /api/ai/chat rate limit', async () => {
  const f = await startFakeFleet(['openai']);
  afterAll(() => f.close());
  const t = await startTestApp({ env: { ...f.env, RATE_LIMIT_CHAT: '2' } });

  it('allows RATE_LIMIT_CHAT calls a minute per caller, then 429 with retry-after', async () => {
    const user = await signUpAndIn(t.app);
    const sub = await subscribe(t.infra.pools.owner, user.id, 'label');
    expect((await chat(t.app, user, { plan: 'label', subscription: sub })).status).toBe(200);
    expect((await chat(t.app, user, { plan: 'label', subscription: sub })).status).toBe(200);
    const res = await chat(t.app, user, { plan: 'label', subscription: sub });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('RATE_LIMITED');
    expect(res.headers['retry-after']).toBeDefined();
    // another caller has their own budget
    const other = await signUpAndIn(t.app);
    const otherSub = await subscribe(t.infra.pools.owner, other.id, 'label');
    expect((await chat(t.app, other, { plan: 'label', subscription: otherSub })).status).toBe(200);
  });
});
