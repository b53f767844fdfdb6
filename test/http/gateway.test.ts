import { afterEach, describe, expect, it } from 'vitest';
import { ONE_CALL_GRANTS } from '../../src/application/ports/one-call-grants.port.js';
import { subscribe } from '../support/ai/chat-fixtures.js';
import { echoPlugins } from '../support/gateway/echo-plugin.js';
import { InMemoryOneCallGrants } from '../support/gateway/in-memory-one-call-grants.js';
import { bearer, call, signUpAndIn, signUpVerifiedAndIn, uniqueEmail } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * The gateway's processor method (subscription, or a one-call purchase), its edges (plugin
 * choice, body validation before payment, CORS, rate limit), with MPP not configured.
 */
const ADMIN = uniqueEmail('gw-admin');
const { plugins, register } = echoPlugins('generate-text', 'tts');
const grants = new InMemoryOneCallGrants();
const { app, infra } = await startTestApp({
  env: { ADMIN_EMAILS: ADMIN, RATE_LIMIT_GATEWAY: '100000' },
  override: (c) => {
    register(c);
    c.register(ONE_CALL_GRANTS, { useValue: grants });
  },
});
const owner = infra.pools.owner;
afterEach(() => {
  for (const p of Object.values(plugins)) p.failing = p.crashing = false;
});

const gateway = (payload: unknown, headers: Record<string, string> = {}) =>
  call(app, { method: 'POST', url: '/api/v1/gateway', headers: { 'content-type': 'application/json', ...headers }, payload: payload as object });

/** A user with an API key and, unless `plan` is null, a subscription. */
async function caller(plan: string | null = 'label', email?: string) {
  // a listed (admin) address counts only verified
  const user = email ? await signUpVerifiedAndIn(app, owner, { email }) : await signUpAndIn(app);
  const key = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'gw' } })).body.key as string;
  if (plan) await subscribe(owner, user.id, plan);
  return { user, auth: bearer(key) };
}
const challenges = async () => (await owner.query('select count(*)::int n from mpp_challenges')).rows[0].n;

describe('the processor method', () => {
  it('when no credentials are sent, then 401 {error: Unauthorized}', async () => {
    const res = await gateway({ prompt: 'hi' });
    expect(res).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
    const bad = await gateway({ prompt: 'hi' }, { authorization: 'Bearer not-a-real-jwt' });
    expect(bad).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
  });

  it('when the caller is subscribed, then 200 with the spec body, x-plugin-id, and the plugin told to meter the caller at the best plan level', async () => {
    const { user, auth } = await caller('label');
    await subscribe(owner, user.id, 'collective');
    await subscribe(owner, user.id, 'network', 'canceled');
    const res = await gateway({ prompt: 'hello' }, auth);
    expect(res.status).toBe(200);
    expect(res.headers['x-plugin-id']).toBe('generate-text');
    expect(res.headers['payment-receipt']).toBeUndefined();
    expect(res.body).toEqual({ plugin: 'generate-text', message: 'echo {"prompt":"hello"}', timestamp: expect.any(String), payment: { method: 'stripe', receipt: null } });
    const payer = plugins['generate-text'].calls.at(-1)!.payer;
    expect(payer).toMatchObject({ kind: 'metered', userId: user.id, grant: { payer: user.id, level: 'collective' } });
  });

  it('when the plugin is named by X-Plugin-Id or by the body, then that plugin answers (the header wins)', async () => {
    const { auth } = await caller();
    expect((await gateway({ plugin: 'tts', text: 'speak' }, auth)).body.plugin).toBe('tts');
    expect((await gateway({ plugin: 'generate-text', text: 'speak' }, { ...auth, 'x-plugin-id': 'tts' })).body.plugin).toBe('tts');
  });

  it('when a session calls without its CSRF token, then 403; with it, 200', async () => {
    const { user } = await caller();
    expect((await gateway({ prompt: 'hi' }, { cookie: user.cookie })).body.code).toBe('CSRF_TOKEN_MISSING');
    expect((await gateway({ prompt: 'hi' }, user.headers)).status).toBe(200);
  });

  it('when an admin without subscription calls, then 200 at network level', async () => {
    const { auth } = await caller(null, ADMIN);
    expect((await gateway({ prompt: 'hi' }, auth)).status).toBe(200);
    expect(plugins['generate-text'].calls.at(-1)!.payer).toMatchObject({ kind: 'metered', grant: { level: 'network' } });
  });

  it('when the caller has no subscription, then 402 payment_required with the processor checkout only (MPP not configured), no WWW-Authenticate', async () => {
    const { auth } = await caller(null);
    await caller(null).then(async (other) => subscribe(owner, other.user.id, 'network'));
    const res = await gateway({ prompt: 'hi' }, auth);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: 'payment_required', message: expect.any(String), psp: { checkoutUrl: 'http://127.0.0.1:3000/api/v1/payments/psp/create?plugin=generate-text', amount: '0.01', currency: 'usd' } });
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('when a past_due subscription is all the caller has, then 402', async () => {
    const { auth } = await caller('network');
    const pastDue = await caller(null);
    await subscribe(owner, pastDue.user.id, 'network', 'past_due');
    expect((await gateway({ prompt: 'hi' }, pastDue.auth)).status).toBe(402);
    expect((await gateway({ prompt: 'hi' }, auth)).status).toBe(200);
  });

  it('when the caller bought one call of the plugin, then it is used once (prepaid via psp), and restored when the plugin fails', async () => {
    const { user, auth } = await caller(null);
    grants.grant(user.id, 'tts');
    expect((await gateway({ prompt: 'hi' }, auth)).status).toBe(402); // a tts call does not pay for generate-text
    plugins.tts.failing = true;
    const failed = await gateway({ text: 'hi' }, { ...auth, 'x-plugin-id': 'tts' });
    expect(failed).toMatchObject({ status: 502, body: { code: 'PROVIDER_ERROR' } });
    plugins.tts.failing = false;
    const res = await gateway({ text: 'hi' }, { ...auth, 'x-plugin-id': 'tts' });
    expect(res.status).toBe(200);
    expect(res.body.payment).toEqual({ method: 'stripe', receipt: null });
    expect(plugins.tts.calls.at(-1)!.payer).toEqual({ kind: 'prepaid', via: 'psp', userId: user.id, receipt: null, level: 'label' });
    expect((await gateway({ text: 'hi' }, { ...auth, 'x-plugin-id': 'tts' })).status).toBe(402);
  });

  it("when the plugin's provider fails, then 502 PROVIDER_ERROR", async () => {
    const { auth } = await caller();
    plugins['generate-text'].failing = true;
    expect(await gateway({ prompt: 'hi' }, auth)).toMatchObject({ status: 502, body: { error: expect.any(String), code: 'PROVIDER_ERROR' } });
    const streamed = await gateway({ prompt: 'hi' }, { ...auth, accept: 'text/event-stream' });
    expect(streamed).toMatchObject({ status: 502, body: { code: 'PROVIDER_ERROR' } });
  });

  it('when the plugin fails for another reason than its provider, then 500 {error: internal}, logged, with no detail', async () => {
    const { auth } = await caller();
    plugins['generate-text'].crashing = true;
    const res = await gateway({ prompt: 'hi' }, auth);
    expect(res).toMatchObject({ status: 500, body: { error: 'internal' } });
    expect(JSON.stringify(res.body)).not.toContain('bug');
  });

  it('when the caller asks for a stream, then server-sent events: deltas, then done with the success body', async () => {
    const { auth } = await caller();
    const res = await app.inject({ method: 'POST', url: '/api/v1/gateway', headers: { ...auth, accept: 'text/event-stream' }, payload: { prompt: 'flow' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const frames = res.body.trim().split('\n\n').map((f) => ({ event: /^event: (.*)$/m.exec(f)![1], data: JSON.parse(/^data: (.*)$/m.exec(f)![1]!) }));
    expect(frames).toEqual([
      { event: 'delta', data: { content: 'echo ' } },
      { event: 'delta', data: { content: '{"prompt":"flow"}' } },
      { event: 'done', data: { plugin: 'generate-text', message: 'echo {"prompt":"flow"}', timestamp: expect.any(String), payment: { method: 'stripe', receipt: null } } },
    ]);
  });
});

describe('the edges', () => {
  it('when the plugin is unknown or has no implementation, then 502 {error: no_plugin}', async () => {
    const { auth } = await caller();
    expect(await gateway({ prompt: 'hi' }, { ...auth, 'x-plugin-id': 'nope' })).toMatchObject({ status: 502, body: { error: 'no_plugin' } });
    expect(await gateway({ plugin: 'stt', audio: 'AAAA' }, auth)).toMatchObject({ status: 502, body: { error: 'no_plugin' } });
  });

  it('when the body is invalid, then 400 VALIDATION_ERROR before any payment is asked for, for any caller and for an MPP payer', async () => {
    const { auth } = await caller(null);
    const before = await challenges();
    const calls = plugins['generate-text'].calls.length;
    for (const [body, headers] of [
      [{ prompt: '' }, auth],
      [{ prompt: 'a', messages: [{ role: 'user', content: 'b' }] }, { 'x-payment-method': 'mpp' }],
      [{ plugin: 42 }, {}],
      [[1, 2], {}],
      [{ text: 'x'.repeat(5000) }, { ...auth, 'x-plugin-id': 'tts' }],
    ] as const) {
      const res = await gateway(body, headers);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    }
    expect(await challenges()).toBe(before);
    expect(plugins['generate-text'].calls.length).toBe(calls);
  });

  it('when nobody is signed in on the processor method and the body is refused, then 401 Unauthorized comes first; a refused body is 400 on MPP', async () => {
    const before = await challenges();
    for (const body of [{ prompt: '' }, { prompt: 'hi', max_tokens: 0 }, { prompt: 'a', messages: [] }]) {
      expect(await gateway(body)).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
      expect(await gateway(body, { 'x-payment-method': 'stripe' })).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
      expect(await gateway(body, { 'x-payment-method': 'mpp' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    }
    expect(await challenges()).toBe(before);
  });

  it('when X-Payment-Method says stripe, then it wins over a Payment credential (processor method: 401 without a caller)', async () => {
    const credential = `Payment ${JSON.stringify({ scheme: 'Payment', transaction: `0x${'1'.repeat(64)}`, challengeNonce: 'n'.repeat(32) })}`;
    expect(await gateway({ prompt: 'hi' }, { authorization: credential, 'x-payment-method': 'stripe' })).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
    // without the header the credential implies mpp: here MPP is not configured, so 402 with the processor checkout and the reason
    expect(await gateway({ prompt: 'hi' }, { authorization: credential })).toMatchObject({ status: 402, body: { error: 'payment_required', reason: 'MPP_UNAVAILABLE' } });
  });

  it('when X-Payment-Method names something else, then 400', async () => {
    const { auth } = await caller();
    expect(await gateway({ prompt: 'hi' }, { ...auth, 'x-payment-method': 'paypal' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  it('when a browser sends the CORS preflight, then 204 with exactly the spec methods and headers, for any origin without credentials', async () => {
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/gateway',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-plugin-id' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
    // the spec's headers, then x402's (a browser's @x402/fetch sends its payment and asks to read the answer's, decision 0430)
    expect(res.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, X-Plugin-Id, X-Payment-Method, PAYMENT-SIGNATURE, X-PAYMENT, Access-Control-Expose-Headers');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const post = await gateway({ prompt: 'hi' }, { origin: 'https://elsewhere.example' });
    expect(post.headers['access-control-allow-origin']).toBe('*');
    expect(post.headers['access-control-expose-headers']).toContain('Payment-Receipt');
  });

  it('when a caller passes RATE_LIMIT_GATEWAY calls a minute, then 429 with retry-after; counted per user, and per IP without credentials', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_GATEWAY: '3' }, override: register });
    const send = (headers: Record<string, string> = {}, ip = '10.0.0.1') =>
      limited.app.inject({ method: 'POST', url: '/api/v1/gateway', remoteAddress: ip, headers: { 'content-type': 'application/json', ...headers }, payload: { prompt: 'hi' } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await send()).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const limitedRes = await send();
    expect(limitedRes.headers['retry-after']).toBeDefined();
    expect(limitedRes.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // another IP, and a signed-in caller on the same IP, have their own counts
    expect((await send({}, '10.0.0.2')).statusCode).toBe(401);
    const u = await signUpAndIn(limited.app);
    const key = (await call(limited.app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'gw' } })).body.key as string;
    await subscribe(limited.infra.pools.owner, u.id, 'label');
    const mine = [];
    for (let i = 0; i < 4; i++) mine.push((await send(bearer(key))).statusCode);
    expect(mine).toEqual([200, 200, 200, 429]);
  });
});
