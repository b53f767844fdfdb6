import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { MODEL_CATALOG, modelsForLevel } from '../../../src/domain/ai/model-catalog.js';
import { CHAT_LEVELS } from '../../../src/domain/billing/plan-catalogs.js';
import { startFakeFleet } from '../../support/ai/fake-ai-fleet.js';
import { chat, hi, patientBreakers, subscribe, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { bearer, call, signUpAndIn, signUpVerifiedAndIn, uniqueEmail } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

const fleet = await startFakeFleet();
afterAll(() => fleet.close());
const adminEmail = uniqueEmail('admin');
const { app, container, infra } = await startTestApp({ env: { ...fleet.env, ADMIN_EMAILS: adminEmail, RATE_LIMIT_CHAT: '10000' }, override: patientBreakers });
const owner = infra.pools.owner;

beforeEach(() => {
  fleet.setAll({ kind: 'reply' });
  for (const s of Object.values(fleet.servers)) s.requests.length = 0;
});

async function subscriber(plan: string, status?: Parameters<typeof subscribe>[3]) {
  const user = await signUpAndIn(app);
  return { user, sub: await subscribe(owner, user.id, plan, status) };
}

describe('POST /api/ai/chat: answering', () => {
  it('auto-selects the default model, answers the spec shape, and charges the real usage', async () => {
    const { user, sub } = await subscriber('label');
    const res = await chat(app, user, { plan: 'label', subscription: sub });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      model: 'meta-llama/llama-3.3-70b-instruct',
      provider: 'openrouter',
      message: { role: 'assistant', content: 'Hello, world!' },
      usage: { promptTokens: 12, completionTokens: 4, totalTokens: 16 },
      timestamp: expect.any(String),
    });
    const sent = fleet.server('openrouter').lastRequest();
    expect(sent.body.model).toBe('meta-llama/llama-3.3-70b-instruct');
    expect(sent.body.messages).toEqual(hi);
    // the reservation (prompt + 1024 completion tokens) was settled to 16 tokens: 1 unit
    expect(await unitsUsed(container, user.id)).toEqual({ used: 1, credits: 0 });
  });

  it('sends the chosen model and the sampling options to its provider', async () => {
    const { user, sub } = await subscriber('solo');
    const body = { messages: [{ role: 'system', content: 'Be brief.' }, ...hi], model: 'google/gemini-2.0-flash', temperature: 0.2, top_p: 0.5, max_tokens: 64 };
    const res = await chat(app, user, { plan: 'solo', subscription: sub, body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ model: 'google/gemini-2.0-flash', provider: 'google' });
    const sent = fleet.server('google').lastRequest();
    expect(sent.path).toContain('/v1beta/models/gemini-2.0-flash:generateContent');
    expect(sent.body.generationConfig).toMatchObject({ temperature: 0.2, topP: 0.5, maxOutputTokens: 64 });
  });

  it('auto-selects from taskType within the plan', async () => {
    const { user, sub } = await subscriber('network');
    const res = await chat(app, user, { plan: 'network', subscription: sub, body: { messages: hi, taskType: 'reasoning' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ model: 'anthropic/claude-sonnet-4-20250514', provider: 'anthropic' });
  });

  it('accepts an API key and a JWT as well as the session', async () => {
    const { user, sub } = await subscriber('label');
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'cli' } })).body.key;
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: bearer(key) })).body.token;
    for (const auth of [bearer(key), bearer(jwt)]) {
      const res = await call(app, { method: 'POST', url: '/api/ai/chat', headers: { ...auth, 'x-user-plan': 'label', 'x-payment-subscription-id': sub }, payload: { messages: hi } });
      expect(res.status).toBe(200);
    }
  });
});

describe('POST /api/ai/chat: who may chat', () => {
  it('without credentials: 401', async () => {
    const res = await call(app, { method: 'POST', url: '/api/ai/chat', headers: { 'x-user-plan': 'label', 'x-payment-subscription-id': 'sub_x' }, payload: { messages: hi } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH_REQUIRED');
  });

  it.each([[undefined], [''], ['free'], ['starter'], ['enterprise']])('when x-user-plan is %j, then 402 PLAN_REQUIRED with success false', async (plan) => {
    const { user, sub } = await subscriber('network');
    const res = await chat(app, user, { plan, subscription: sub });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ success: false, code: 'PLAN_REQUIRED', error: expect.any(String) });
  });

  it('checks the plan before the body: a bad body with no plan is 402', async () => {
    const user = await signUpAndIn(app);
    const res = await chat(app, user, { body: { messages: [] } });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('PLAN_REQUIRED');
  });

  it('when the subscription header is missing, then 402 SUBSCRIPTION_REQUIRED', async () => {
    const { user } = await subscriber('network');
    const res = await chat(app, user, { plan: 'label' });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('SUBSCRIPTION_REQUIRED');
  });

  it('when the subscription id is another user\'s, then 402 SUBSCRIPTION_REQUIRED (it is not the caller\'s)', async () => {
    const { sub: theirs } = await subscriber('network');
    const me = await signUpAndIn(app);
    const res = await chat(app, me, { plan: 'label', subscription: theirs });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('SUBSCRIPTION_REQUIRED');
    expect(fleet.chatRequests()).toEqual([]);
  });

  it.each(['past_due', 'canceled', 'incomplete', 'unpaid'] as const)('when the subscription is %s, then 402 SUBSCRIPTION_REQUIRED', async (status) => {
    const { user, sub } = await subscriber('network', status);
    const res = await chat(app, user, { plan: 'label', subscription: sub });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('SUBSCRIPTION_REQUIRED');
  });

  it('accepts a trialing subscription', async () => {
    const { user, sub } = await subscriber('label', 'trialing');
    expect((await chat(app, user, { plan: 'label', subscription: sub })).status).toBe(200);
  });

  it('when x-user-plan is above the subscription\'s chat level, then 402 SUBSCRIPTION_REQUIRED', async () => {
    const { user, sub } = await subscriber('solo');
    const res = await chat(app, user, { plan: 'collective', subscription: sub });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('SUBSCRIPTION_REQUIRED');
  });

  it('maps a billing-catalog subscription to its chat level (pro is solo)', async () => {
    const user = await signUpAndIn(app);
    const sub = await subscribe(owner, user.id, { catalog: 'billing', plan: 'pro' });
    expect((await chat(app, user, { plan: 'solo', subscription: sub, body: { messages: hi, model: 'ollama/llama3.2' } })).status).toBe(200);
    expect((await chat(app, user, { plan: 'collective', subscription: sub })).status).toBe(402);
  });

  it('an x-user-email naming an admin grants nothing to someone else', async () => {
    const user = await signUpAndIn(app);
    const res = await chat(app, user, { plan: 'network', headers: { 'x-user-email': adminEmail } });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('SUBSCRIPTION_REQUIRED');
  });

  it('an admin authenticated as an ADMIN_EMAILS address needs no subscription and gets network level', async () => {
    const admin = await signUpVerifiedAndIn(app, owner, { email: adminEmail });
    const res = await chat(app, admin, { plan: 'label', body: { messages: hi, model: 'openai/gpt-4o' } });
    expect(res.status).toBe(200);
    expect(res.body.model).toBe('openai/gpt-4o');
    // admins are metered against their own allowance like anyone
    expect((await unitsUsed(container, admin.id)).used).toBe(1);
  });
});

describe('POST /api/ai/chat: a caller\'s next call reserves while its subscription is read', () => {
  const statuses = async (userId: string) =>
    (await owner.query(`select status from usage_reservations where payer = $1 order by created_at`, [userId])).rows.map((r) => r.status as string);

  it('when the subscription lapses between two calls, then the second is 402 and what was reserved meanwhile is given back', async () => {
    const { user, sub } = await subscriber('label');
    // credits, so that even without the plan's daily units something can be reserved
    await owner.query('update users set credits = 5 where id = $1', [user.id]);
    expect((await chat(app, user, { plan: 'label', subscription: sub })).status).toBe(200);
    expect(await unitsUsed(container, user.id)).toEqual({ used: 1, credits: 5 });
    await owner.query(`update subscriptions set status = 'canceled' where processor_subscription_id = $1`, [sub]);
    fleet.servers.openrouter!.requests.length = 0;
    const res = await chat(app, user, { plan: 'label', subscription: sub });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('SUBSCRIPTION_REQUIRED');
    expect(fleet.chatRequests()).toEqual([]);
    // reserved during the read (the caller's last call was metered), then given back
    await expect.poll(() => statuses(user.id)).toEqual(['settled', 'released']);
    expect(await unitsUsed(container, user.id)).toEqual({ used: 1, credits: 5 });
    // and the one after waits for the read: nothing reserved for a refused caller
    expect((await chat(app, user, { plan: 'label', subscription: sub })).status).toBe(402);
    expect(await statuses(user.id)).toEqual(['settled', 'released']);
  });

  it('when the next call asks for a level its subscription does not grant, then 402 before the model, and nothing stays reserved', async () => {
    const { user, sub } = await subscriber('label');
    expect((await chat(app, user, { plan: 'label', subscription: sub })).status).toBe(200);
    const res = await chat(app, user, { plan: 'network', subscription: sub, body: { messages: hi, model: 'anthropic/claude-sonnet-4-20250514' } });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('SUBSCRIPTION_REQUIRED');
    await expect.poll(() => statuses(user.id)).toEqual(['settled', 'released']);
    expect(await unitsUsed(container, user.id)).toEqual({ used: 1, credits: 0 });
  });

  it('judges the subscription before the body and the model, first call or not', async () => {
    const { sub: theirs } = await subscriber('network');
    const { user, sub } = await subscriber('label');
    for (let i = 0; i < 2; i++) {
      expect((await chat(app, user, { plan: 'label', subscription: theirs, body: { messages: [] } })).body.code).toBe('SUBSCRIPTION_REQUIRED');
      expect((await chat(app, user, { plan: 'label', subscription: theirs, body: { messages: hi, model: 'anthropic/claude-sonnet-4-20250514' } })).body.code).toBe('SUBSCRIPTION_REQUIRED');
      expect((await chat(app, user, { plan: 'label', subscription: sub })).status).toBe(200);
    }
    expect((await chat(app, user, { plan: 'label', subscription: sub, body: { messages: [] } })).status).toBe(400);
    expect((await chat(app, user, { plan: 'label', subscription: sub, body: { messages: hi, model: 'anthropic/claude-sonnet-4-20250514' } })).body.code).toBe('MODEL_RESTRICTED');
    await expect.poll(() => statuses(user.id)).not.toContain('open');
    expect(await unitsUsed(container, user.id)).toEqual({ used: 2, credits: 0 });
  });
});

describe('POST /api/ai/chat: body', () => {
  it.each([
    [{}],
    [{ messages: [] }],
    [{ messages: 'hi' }],
    [{ messages: [{ role: 'tool', content: 'x' }] }],
    [{ messages: [{ role: 'user' }] }],
    [{ messages: [{ role: 'user', content: '' }] }],
    [{ messages: hi, temperature: 2.01 }],
    [{ messages: hi, temperature: -0.1 }],
    [{ messages: hi, top_p: 1.5 }],
    [{ messages: hi, top_p: -1 }],
    [{ messages: hi, max_tokens: 0 }],
    [{ messages: hi, max_tokens: 1.5 }],
    [{ messages: hi, max_tokens: '10' }],
    [{ messages: hi, temperature: '0.5' }],
  ])('when the body is %j, then 400 VALIDATION_ERROR, nothing sent and nothing charged', async (body) => {
    const { user, sub } = await subscriber('network');
    const res = await chat(app, user, { plan: 'network', subscription: sub, body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(fleet.chatRequests()).toEqual([]);
    expect((await unitsUsed(container, user.id)).used).toBe(0);
  });

  it('accepts the boundaries temperature 0 and 2, top_p 0 and 1', async () => {
    const { user, sub } = await subscriber('label');
    for (const extra of [{ temperature: 0, top_p: 0 }, { temperature: 2, top_p: 1 }]) {
      expect((await chat(app, user, { plan: 'label', subscription: sub, body: { messages: hi, ...extra } })).status).toBe(200);
    }
  });

  it('when the model is unknown, then 400 UNKNOWN_MODEL', async () => {
    const { user, sub } = await subscriber('network');
    const res = await chat(app, user, { plan: 'network', subscription: sub, body: { messages: hi, model: 'acme/gpt-9' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNKNOWN_MODEL');
  });

  it('when the task type is unknown, then 400 UNKNOWN_TASK_TYPE', async () => {
    const { user, sub } = await subscriber('network');
    const res = await chat(app, user, { plan: 'network', subscription: sub, body: { messages: hi, taskType: 'poetry' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNKNOWN_TASK_TYPE');
  });

  it('when no model of the plan serves the task type, then 404', async () => {
    const { user, sub } = await subscriber('label');
    const res = await chat(app, user, { plan: 'label', subscription: sub, body: { messages: hi, taskType: 'reasoning' } });
    expect(res.status).toBe(404);
    expect(fleet.chatRequests()).toEqual([]);
  });
});

describe('POST /api/ai/chat: plan model access', () => {
  it.each(CHAT_LEVELS)('a %s subscriber gets exactly the plan\'s models (label 2, solo 4, collective 6, network all)', async (level) => {
    const { user, sub } = await subscriber(level);
    const allowed = modelsForLevel(level).map((m) => m.id);
    expect(allowed).toHaveLength({ label: 2, solo: 4, collective: 6, network: MODEL_CATALOG.length }[level]);
    const served: string[] = [];
    for (const model of MODEL_CATALOG) {
      const res = await chat(app, user, { plan: level, subscription: sub, body: { messages: hi, model: model.id } });
      if (allowed.includes(model.id)) {
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ model: model.id, provider: model.provider });
        served.push(res.body.model);
      } else {
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ code: 'MODEL_RESTRICTED', allowedModels: allowed });
      }
    }
    expect(served.sort()).toEqual([...allowed].sort());
    // every provider call was for an allowed model
    const asked = fleet.chatRequests().map((r) => r.model);
    expect(asked).toHaveLength(allowed.length);
  });
});
