import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { patientBreakers, subscribe, unitsUsed } from '../support/ai/chat-fixtures.js';
import { startFakeOpenAiServer } from '../support/ai/fake-openai-server.js';
import { bearer, call, signUpAndIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/** The gateway's metered calls under an API key's limits (decision 0425), with the real generate-text plugin. */
const PLATFORM_KEY = 'sk-or-gateway-keys';
const provider = await startFakeOpenAiServer({ apiKey: PLATFORM_KEY });
afterAll(() => provider.close());
const { app, container, infra } = await startTestApp({
  env: { OPENROUTER_API_KEY: PLATFORM_KEY, OPENROUTER_BASE_URL: provider.baseUrl, RATE_LIMIT_GATEWAY: '100000' },
  override: patientBreakers,
});
const owner = infra.pools.owner;
beforeEach(() => provider.setBehaviour({ kind: 'reply' }));

const gateway = (key: string) =>
  call(app, { method: 'POST', url: '/api/v1/gateway', headers: { 'content-type': 'application/json', 'x-plugin-id': 'generate-text', ...bearer(key) }, payload: { prompt: 'Say hello' } });

async function keyHolder(limits: object) {
  const user = await signUpAndIn(app);
  await subscribe(owner, user.id, 'label');
  const key = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'gw', ...limits } })).body as { id: string; key: string };
  return { user, key };
}

describe('the gateway under a key with limits', () => {
  it("when the key's daily units run out, then 429 KEY_BUDGET_EXHAUSTED and the owner paid only what the key spent", async () => {
    // each call reserves 2 units (its prompt and 1,024 answer tokens) and settles to 1
    const { user, key } = await keyHolder({ dailyUnits: 3 });
    expect((await gateway(key.key)).status).toBe(200);
    expect((await gateway(key.key)).status).toBe(200);
    const over = await gateway(key.key);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('KEY_BUDGET_EXHAUSTED');
    expect((await unitsUsed(container, user.id)).used).toBe(2);
    expect((await call(app, { method: 'GET', url: `/api/keys/${key.id}`, headers: { cookie: user.cookie } })).body.unitsUsed).toBe(2);
  });

  it('when none of the models the call may use is on the key\'s list, then 403 KEY_MODEL_NOT_ALLOWED and nothing is reserved', async () => {
    const { user, key } = await keyHolder({ models: ['google/gemini-2.0-flash'] });
    const res = await gateway(key.key);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('KEY_MODEL_NOT_ALLOWED');
    expect((await owner.query(`select count(*)::int n from usage_reservations where payer = $1`, [user.id])).rows[0].n).toBe(0);
  });

  it("when the key makes more calls a minute than its rateLimit, then 429 RATE_LIMITED", async () => {
    const { key } = await keyHolder({ rateLimit: 1 });
    expect((await gateway(key.key)).status).toBe(200);
    const over = await gateway(key.key);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('RATE_LIMITED');
  });
});
