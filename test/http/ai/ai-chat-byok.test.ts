import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer } from '../../support/ai/fake-openai-server.js';
import { chat, hi, patientBreakers, subscribe, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { call, signUpAndIn, type SignedIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

const USER_KEY = 'sk-user-own-openai-key-0123456789';
// OpenAI's stand-in accepts only the user's own key; OpenRouter's only the platform's
const openai = await startFakeOpenAiServer({ apiKey: USER_KEY });
const openrouter = await startFakeOpenAiServer({ apiKey: 'sk-or-platform-key' });
afterAll(async () => {
  await openai.close();
  await openrouter.close();
});
const { app, container, infra } = await startTestApp({
  env: {
    OPENAI_API_KEY: 'sk-platform-openai-key-not-accepted',
    OPENAI_BASE_URL: openai.baseUrl,
    OPENROUTER_API_KEY: 'sk-or-platform-key',
    OPENROUTER_BASE_URL: openrouter.baseUrl,
  },
  override: patientBreakers,
});
const owner = infra.pools.owner;

beforeEach(() => {
  openai.setBehaviour({ kind: 'reply' });
  openrouter.setBehaviour({ kind: 'reply' });
  openai.requests.length = 0;
  openrouter.requests.length = 0;
});

async function byokUser(apiKey = USER_KEY): Promise<{ user: SignedIn; sub: string }> {
  const user = await signUpAndIn(app);
  const sub = await subscribe(owner, user.id, 'label');
  const res = await call(app, { method: 'POST', url: '/api/billing', headers: user.headers, payload: { action: 'enable-byok', provider: 'openai', apiKey } });
  expect(res.status).toBe(200);
  return { user, sub };
}

describe('POST /api/ai/chat with the user\'s own key (BYOK)', () => {
  it('calls the provider with the user\'s key and reserves nothing, even with the day\'s units spent', async () => {
    const { user, sub } = await byokUser();
    await owner.query(`insert into daily_usage (user_id, day, used_units) values ($1, (now() at time zone 'utc')::date, 600)`, [user.id]);
    const res = await chat(app, user, { plan: 'label', subscription: sub, body: { messages: hi, model: 'openai/gpt-4o-mini' } });
    expect(res.status).toBe(200);
    expect(res.body.provider).toBe('openai');
    expect(openai.lastRequest().headers.authorization).toBe(`Bearer ${USER_KEY}`);
    expect((await unitsUsed(container, user.id)).used).toBe(600);
  });

  it('an auto-selected call prefers what the user\'s keys reach', async () => {
    const { user, sub } = await byokUser();
    const res = await chat(app, user, { plan: 'label', subscription: sub });
    expect(res.status).toBe(200);
    expect(res.body.model).toBe('openai/gpt-4o-mini');
    expect(openrouter.requests).toHaveLength(0);
    expect((await unitsUsed(container, user.id)).used).toBe(0);
  });

  it('a model whose provider has no user key is a metered call on the platform key', async () => {
    const { user, sub } = await byokUser();
    const res = await chat(app, user, { plan: 'label', subscription: sub, body: { messages: hi, model: 'meta-llama/llama-3.3-70b-instruct' } });
    expect(res.status).toBe(200);
    expect(openrouter.lastRequest().headers.authorization).toBe('Bearer sk-or-platform-key');
    expect((await unitsUsed(container, user.id)).used).toBe(1);
  });

  it('when the user\'s key is refused: 500 PROVIDER_ERROR, no fallback onto the platform\'s keys, nothing charged', async () => {
    const { user, sub } = await byokUser('sk-wrong-user-key-000000');
    const res = await chat(app, user, { plan: 'label', subscription: sub, body: { messages: hi, model: 'openai/gpt-4o-mini' } });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('PROVIDER_ERROR');
    expect(JSON.stringify(res.body)).not.toContain('sk-wrong');
    expect(openrouter.requests).toHaveLength(0);
    expect((await unitsUsed(container, user.id)).used).toBe(0);
  });

  it('streams with the user\'s key too', async () => {
    const { user, sub } = await byokUser();
    const res = await chat(app, user, { plan: 'label', subscription: sub, body: { messages: hi, model: 'openai/gpt-4o-mini' }, headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(200);
    expect(openai.lastRequest().headers.authorization).toBe(`Bearer ${USER_KEY}`);
    expect((await unitsUsed(container, user.id)).used).toBe(0);
  });

  it('after disable-byok the platform key is used and the call is metered', async () => {
    const { user, sub } = await byokUser();
    expect((await call(app, { method: 'POST', url: '/api/billing', headers: user.headers, payload: { action: 'disable-byok' } })).status).toBe(200);
    const res = await chat(app, user, { plan: 'label', subscription: sub, body: { messages: hi, model: 'openai/gpt-4o-mini' } });
    // this stand-in refuses the platform's OpenAI key, which proves the user's key is gone; the
    // call then falls back to the other label model on the platform's OpenRouter key, metered
    expect(openai.lastRequest().headers.authorization).toBe('Bearer sk-platform-openai-key-not-accepted');
    expect(res.status).toBe(200);
    expect(res.body.provider).toBe('openrouter');
    expect((await unitsUsed(container, user.id)).used).toBe(1);
  });

  it('when a metered caller enables BYOK between two calls, then the second goes on the user\'s key and the units reserved during its checks are given back', async () => {
    const user = await signUpAndIn(app);
    const sub = await subscribe(owner, user.id, 'label');
    const body = { messages: hi, model: 'openai/gpt-4o-mini' };
    // metered first (the stand-in refuses the platform key, so the call falls back to OpenRouter)
    expect((await chat(app, user, { plan: 'label', subscription: sub, body })).status).toBe(200);
    expect((await unitsUsed(container, user.id)).used).toBe(1);
    expect((await call(app, { method: 'POST', url: '/api/billing', headers: user.headers, payload: { action: 'enable-byok', provider: 'openai', apiKey: USER_KEY } })).status).toBe(200);
    const res = await chat(app, user, { plan: 'label', subscription: sub, body });
    expect(res.status).toBe(200);
    expect(openai.lastRequest().headers.authorization).toBe(`Bearer ${USER_KEY}`);
    expect((await unitsUsed(container, user.id)).used).toBe(1);
    const rows = (await owner.query(`select status from usage_reservations where payer = $1 order by created_at`, [user.id])).rows.map((r) => r.status);
    expect(rows.every((s) => s !== 'open')).toBe(true);
    expect(rows.filter((s) => s === 'settled')).toHaveLength(1);
  });
});
