import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ONE_CALL_GRANTS } from '../../src/application/ports/one-call-grants.port.js';
import type { UserId } from '../../src/domain/shared/ids.js';
import { call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startFakeStripe, stripeJson, type RecordedRequest, type Responder } from '../support/payments/fake-stripe-server.js';
import { checkoutCompletedEvent, checkoutSession, signedStripeEvent, stripeEvent } from '../support/payments/stripe-events.js';
import { startTestApp } from '../support/test-app.js';

/**
 * One gateway call bought through Stripe: the checkout against a local stand-in of the Stripe API,
 * the completion through the real webhook, signed by the Stripe SDK. Exactly one call per
 * payment, whatever the processor redelivers.
 */
const happy: Responder = (req) =>
  req.path === '/v1/customers'
    ? { status: 200, body: stripeJson.customer(`cus_${randomBytes(5).toString('hex')}`, req.form.get('email') ?? '') }
    : { status: 200, body: stripeJson.checkoutSession(`cs_test_${randomBytes(8).toString('hex')}`) };
let responder: Responder = happy;
const fake = await startFakeStripe((req) => responder(req));
afterAll(() => fake.close());

const SECRET = `whsec_${randomBytes(24).toString('base64url')}`;
const { app, infra, container } = await startTestApp({
  env: {
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_BASE_URL: `http://127.0.0.1:${fake.port}`,
    STRIPE_TIMEOUT_MS: '300',
    STRIPE_PRICE_GATEWAY_GENERATE_TEXT: 'price_gw_text',
    STRIPE_PRICE_GATEWAY_TTS: 'price_gw_tts',
    STRIPE_PRICE_GATEWAY_AGENT: 'price_gw_agent',
  },
});
const owner = infra.pools.owner;
const grants = container.resolve(ONE_CALL_GRANTS);

beforeEach(() => {
  responder = happy;
  fake.requests.length = 0;
});

const create = (u: SignedIn, plugin: string) => call(app, { method: 'GET', url: `/api/v1/payments/psp/create?plugin=${plugin}`, headers: { cookie: u.cookie } });
const rowsOf = async (u: SignedIn) =>
  (await owner.query('select id, plugin, session_id, status from one_call_grants where user_id = $1 order by created_at', [u.id])).rows;
const sessionRequests = () => fake.requests.filter((r) => r.path === '/v1/checkout/sessions');
const consume = (u: SignedIn, plugin: 'agent' | 'generate-text' | 'tts' | 'stt') => grants.consume(u.id as UserId, plugin);
const deliver = (event: object) => {
  const signed = signedStripeEvent(SECRET, event);
  return app.inject({ method: 'POST', url: '/api/webhooks/psp', headers: { 'content-type': 'application/json', 'psp-signature': signed.header }, payload: signed.body });
};

/** The completed session as Stripe would send it back: the metadata the checkout was created with. */
function completedSessionOf(opened: RecordedRequest, over: Record<string, unknown> = {}) {
  const f = opened.form;
  const metadata = Object.fromEntries([...f.entries()].flatMap(([k, v]) => (/^metadata\[(\w+)\]$/.exec(k) ? [[/^metadata\[(\w+)\]$/.exec(k)![1]!, v]] : [])));
  return checkoutSession({
    id: (over.id as string | undefined) ?? 'unset',
    mode: 'payment',
    client_reference_id: f.get('client_reference_id'),
    customer: f.get('customer'),
    currency: 'usd',
    amount_total: 100,
    metadata,
    subscription: null,
    ...over,
  });
}

/** Opens a checkout for `plugin` and returns the grant row and the recorded session request. */
async function open(u: SignedIn, plugin: string) {
  const res = await create(u, plugin);
  expect(res.status).toBe(200);
  const grant = (await rowsOf(u)).at(-1)!;
  const opened = sessionRequests().at(-1)!;
  return { url: res.body.url as string, grant, session: completedSessionOf(opened, { id: grant.session_id }), opened };
}

describe('GET /api/v1/payments/psp/create with Stripe', () => {
  it('opens a one-off payment for the plugin\'s price, naming the grant in the metadata, and records it pending', async () => {
    const u = await signUpAndIn(app);
    const { url, grant, opened } = await open(u, 'tts');
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const f = opened.form;
    expect(
      Object.fromEntries(['mode', 'client_reference_id', 'line_items[0][price]', 'line_items[0][quantity]', 'metadata[kind]', 'metadata[plugin]', 'metadata[grantId]', 'metadata[userId]', 'payment_intent_data[metadata][grantId]'].map((k) => [k, f.get(k)])),
    ).toEqual({
      mode: 'payment',
      client_reference_id: u.id,
      'line_items[0][price]': 'price_gw_tts',
      'line_items[0][quantity]': '1',
      'metadata[kind]': 'one-call',
      'metadata[plugin]': 'tts',
      'metadata[grantId]': grant.id,
      'metadata[userId]': u.id,
      'payment_intent_data[metadata][grantId]': grant.id,
    });
    expect(grant).toMatchObject({ plugin: 'tts', status: 'pending', session_id: expect.stringMatching(/^cs_test_/) });
  });

  it('when a plugin has no configured price, then 503 PRICE_NOT_CONFIGURED, Stripe is not called and nothing is recorded', async () => {
    const u = await signUpAndIn(app);
    const res = await create(u, 'stt');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('PRICE_NOT_CONFIGURED');
    expect(fake.requests).toEqual([]);
    expect(await rowsOf(u)).toEqual([]);
  });

  const failures: [string, Responder][] = [
    ['answers 500', () => ({ status: 500, body: stripeJson.error('boom') })],
    ['times out', () => 'hang'],
    ['fails only the session', (req: RecordedRequest) => (req.path === '/v1/customers' ? happy(req) : { status: 500, body: stripeJson.error('boom') })],
  ];
  it.each(failures)('when Stripe %s, then 502 UPSTREAM_UNAVAILABLE and no grant is recorded', async (_name, failing) => {
    const u = await signUpAndIn(app);
    responder = failing;
    const res = await create(u, 'generate-text');
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(JSON.stringify(res.body)).not.toContain('boom');
    expect(await rowsOf(u)).toEqual([]);
  });
});

describe('checkout.session.completed for one call', () => {
  it('when the payment completes, then one call is granted; redelivered, it grants nothing more', async () => {
    const u = await signUpAndIn(app);
    const { grant, session } = await open(u, 'generate-text');
    const event = checkoutCompletedEvent(session);
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await rowsOf(u)).map((r) => r.status)).toEqual(['paid']);
    expect((await deliver(event)).statusCode).toBe(200);
    expect(await consume(u, 'generate-text')).toEqual({ grantId: grant.id });
    expect(await consume(u, 'generate-text')).toBeNull();
    // redelivered after the call was served, and another event about the same session: still nothing
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await deliver(stripeEvent('checkout.session.async_payment_succeeded', session))).statusCode).toBe(200);
    expect(await consume(u, 'generate-text')).toBeNull();
    expect((await owner.query('select count(*)::int n from processed_events where event_id = $1', [event.id])).rows[0].n).toBe(1);
  });

  it('when the same event arrives 8 times at once, then all answer 200 and one call is granted', async () => {
    const u = await signUpAndIn(app);
    const { session } = await open(u, 'agent');
    const event = checkoutCompletedEvent(session);
    const answers = await Promise.all(Array.from({ length: 8 }, () => deliver(event)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(await consume(u, 'agent')).not.toBeNull();
    expect(await consume(u, 'agent')).toBeNull();
  });

  it('when the session completes unpaid (a delayed method), then nothing until its payment succeeds', async () => {
    const u = await signUpAndIn(app);
    const { session } = await open(u, 'tts');
    expect((await deliver(checkoutCompletedEvent({ ...session, payment_status: 'unpaid' }))).statusCode).toBe(200);
    expect(await consume(u, 'tts')).toBeNull();
    expect((await deliver(stripeEvent('checkout.session.async_payment_succeeded', session))).statusCode).toBe(200);
    expect(await consume(u, 'tts')).not.toBeNull();
  });

  it('when no user can be found for a paid one-call session, then it is kept as unmatched money and grants nothing', async () => {
    const u = await signUpAndIn(app);
    const { session } = await open(u, 'tts');
    const orphan = { ...session, client_reference_id: null, customer: `cus_${randomBytes(6).toString('hex')}`, customer_details: { email: 'nobody-here@example.test' } };
    const event = checkoutCompletedEvent(orphan);
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await owner.query('select count(*)::int n from unmatched_payment_events where event_id = $1', [event.id])).rows[0].n).toBe(1);
    expect((await rowsOf(u)).map((r) => r.status)).toEqual(['pending']);
  });

  it("when an event names a grant that is not the buyer's, or another plugin, session or grant, then nothing is granted", async () => {
    const a = await signUpAndIn(app);
    const b = await signUpAndIn(app);
    const { grant, session } = await open(a, 'tts');
    const meta = session.metadata as Record<string, string>;
    const forged = [
      { ...session, client_reference_id: b.id, customer: null, metadata: { ...meta, userId: b.id } },
      { ...session, metadata: { ...meta, plugin: 'generate-text' } },
      { ...session, id: `cs_test_${randomBytes(8).toString('hex')}` },
      { ...session, metadata: { ...meta, grantId: randomUUID() } },
      { ...session, metadata: { ...meta, grantId: 'not-a-uuid' } },
    ];
    for (const s of forged) expect((await deliver(checkoutCompletedEvent(s))).statusCode).toBe(200);
    expect((await rowsOf(a)).map((r) => r.status)).toEqual(['pending']);
    for (const plugin of ['tts', 'generate-text'] as const) {
      expect(await consume(a, plugin)).toBeNull();
      expect(await consume(b, plugin)).toBeNull();
    }
    // the genuine event still works afterwards
    expect((await deliver(checkoutCompletedEvent(session))).statusCode).toBe(200);
    expect(await consume(a, 'tts')).toEqual({ grantId: grant.id });
  });
});
