import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeFleet } from '../../support/ai/fake-ai-fleet.js';
import { hi, patientBreakers, reservationsOf, subscribe, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { bearer, call, signUpAndIn, type SignedIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/** /api/ai/chat under an API key's limits (decision 0425): its daily units and its models. */
const fleet = await startFakeFleet();
afterAll(() => fleet.close());
const { app, container, infra } = await startTestApp({ env: { ...fleet.env, RATE_LIMIT_CHAT: '10000' }, override: patientBreakers });
const owner = infra.pools.owner;

beforeEach(() => {
  fleet.setAll({ kind: 'reply' });
  for (const s of Object.values(fleet.servers)) s.requests.length = 0;
});

const providerCalls = () => Object.values(fleet.servers).reduce((n, s) => n + s.requests.length, 0);

async function keyHolder(limits: object) {
  const user = await signUpAndIn(app);
  const sub = await subscribe(owner, user.id, 'label'); // 600 units a day: the owner is never the limit here
  const key = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'handed out', ...limits } })).body as { id: string; key: string };
  return { user, sub, key };
}

const chatWith = (credential: string, sub: string, body: object = { messages: hi }) =>
  call(app, { method: 'POST', url: '/api/ai/chat', headers: { ...bearer(credential), 'x-user-plan': 'label', 'x-payment-subscription-id': sub }, payload: body });

const keyEntry = async (user: SignedIn, id: string) => (await call(app, { method: 'GET', url: `/api/keys/${id}`, headers: { cookie: user.cookie } })).body;

describe('POST /api/ai/chat under a key with daily units', () => {
  it('when 50 calls of 1 unit race under a key with room for 10, then exactly 10 are answered, 40 refused 429 KEY_BUDGET_EXHAUSTED, and the owner pays exactly those 10', async () => {
    const { user, sub, key } = await keyHolder({ dailyUnits: 10 });
    // a 100-token answer at most: each call reserves 1 unit and the fake provider's 16 tokens settle it to 1
    const body = { messages: hi, max_tokens: 100 };
    const results = await Promise.all(Array.from({ length: 50 }, () => chatWith(key.key, sub, body)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(40);
    expect(refused.every((r) => r.status === 429 && r.body.code === 'KEY_BUDGET_EXHAUSTED')).toBe(true);
    expect(await unitsUsed(container, user.id)).toEqual({ used: 10, credits: 0 });
    expect((await keyEntry(user, key.id)).unitsUsed).toBe(10);
    // no refused call reached the provider, and none holds anything
    expect(providerCalls()).toBe(10);
    expect((await reservationsOf(owner, user.id)).every((r) => r.status === 'settled' && r.settled_units === 1)).toBe(true);
  });

  it('when a JWT issued from the key chats, then it spends the same cap; the owner\'s session is not bound by it', async () => {
    const { user, sub, key } = await keyHolder({ dailyUnits: 2 });
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: bearer(key.key) })).body.token;
    const body = { messages: hi, max_tokens: 100 };
    expect((await chatWith(key.key, sub, body)).status).toBe(200);
    expect((await chatWith(jwt, sub, body)).status).toBe(200);
    const over = await chatWith(jwt, sub, body);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('KEY_BUDGET_EXHAUSTED');
    const session = await call(app, { method: 'POST', url: '/api/ai/chat', headers: { ...user.headers, 'x-user-plan': 'label', 'x-payment-subscription-id': sub }, payload: body });
    expect(session.status).toBe(200);
    expect((await keyEntry(user, key.id)).unitsUsed).toBe(2);
    expect(await unitsUsed(container, user.id)).toEqual({ used: 3, credits: 0 });
  });

  it('when the cap is raised by PATCH, then the key may spend again at once', async () => {
    const { user, sub, key } = await keyHolder({ dailyUnits: 1 });
    const body = { messages: hi, max_tokens: 100 };
    expect((await chatWith(key.key, sub, body)).status).toBe(200);
    expect((await chatWith(key.key, sub, body)).status).toBe(429);
    expect((await call(app, { method: 'PATCH', url: `/api/keys/${key.id}`, headers: user.headers, payload: { dailyUnits: null } })).status).toBe(200);
    expect((await chatWith(key.key, sub, body)).status).toBe(200);
  });
});

describe('POST /api/ai/chat under a key with a models list', () => {
  it('when the key asks for a model outside its list, then 403 KEY_MODEL_NOT_ALLOWED before any reservation or provider call', async () => {
    const { user, sub, key } = await keyHolder({ models: ['openai/gpt-4o-mini'] });
    const res = await chatWith(key.key, sub, { messages: hi, model: 'meta-llama/llama-3.3-70b-instruct' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('KEY_MODEL_NOT_ALLOWED');
    expect(providerCalls()).toBe(0);
    expect(await reservationsOf(owner, user.id)).toEqual([]);
  });

  it('when the key names no model, then the call is routed to one the key may call, and falls back only within the list', async () => {
    const { sub, key } = await keyHolder({ models: ['openai/gpt-4o-mini'] });
    const res = await chatWith(key.key, sub);
    expect(res.status).toBe(200);
    expect(res.body.model).toBe('openai/gpt-4o-mini');
    const allowed = await chatWith(key.key, sub, { messages: hi, model: 'openai/gpt-4o-mini' });
    expect(allowed.status).toBe(200);
    fleet.setAll({ kind: 'error', status: 503 });
    const failing = await chatWith(key.key, sub, { messages: hi, model: 'openai/gpt-4o-mini' });
    expect(failing.status).not.toBe(200);
    // the default model (outside the list, on openrouter) was never tried as a fallback
    expect(fleet.server('openai').requests.length).toBeGreaterThan(0);
    expect(fleet.server('openrouter').requests).toEqual([]);
  });

  it('when a JWT issued from the key asks for another model, then 403 too', async () => {
    const { sub, key } = await keyHolder({ models: ['openai/gpt-4o-mini'] });
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: bearer(key.key) })).body.token;
    const res = await chatWith(jwt, sub, { messages: hi, model: 'meta-llama/llama-3.3-70b-instruct' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('KEY_MODEL_NOT_ALLOWED');
  });
});
