import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import {
  checkoutCompletedEvent,
  checkoutSession,
  creditPackSession,
  invoice,
  invoiceEvent,
  signedStripeEvent,
  stripeEvent,
  subscription,
  subscriptionEvent,
} from '../support/payments/stripe-events.js';
import { startTestApp } from '../support/test-app.js';

const SECRET = `whsec_${randomBytes(24).toString('base64url')}`;
const { app, infra } = await startTestApp({ env: { STRIPE_WEBHOOK_SECRET: SECRET } });
const owner = infra.pools.owner;

function deliver(event: object, opts: { secret?: string; timestamp?: number; header?: string | null; body?: string } = {}) {
  const signed = signedStripeEvent(opts.secret ?? SECRET, event, opts.timestamp === undefined ? {} : { timestamp: opts.timestamp });
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (opts.header !== null) headers['psp-signature'] = opts.header ?? signed.header;
  return app.inject({ method: 'POST', url: '/api/webhooks/psp', headers, payload: opts.body ?? signed.body });
}

const settings = async (u: SignedIn) => (await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).body;
const billing = async (u: SignedIn) => (await call(app, { method: 'GET', url: '/api/billing', headers: { cookie: u.cookie } })).body;
const ledger = async (id: string) => (await owner.query('select count(*)::int n from processed_events where event_id = $1', [id])).rows[0].n;
const nowS = () => Math.floor(Date.now() / 1000);
const rid = (p: string) => `${p}_${randomBytes(8).toString('hex')}`;

describe('POST /api/webhooks/psp: checkout.session.completed', () => {
  it('when a plan checkout completes, then 200 OK (plain text), the plan shows in settings and billing, and the customer is kept', async () => {
    const u = await signUpAndIn(app);
    const subId = rid('sub');
    const event = checkoutCompletedEvent(checkoutSession({ client_reference_id: u.id, customer: 'cus_plan1', subscription: subId, metadata: { plan: 'collective', kind: 'subscription' } }));
    const res = await deliver(event);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('OK');
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect((await settings(u)).plan).toBe('collective');
    const b = await billing(u);
    expect(b).toMatchObject({ currentPlan: 'collective', subscriptionStatus: 'active', usage: { dailyUnits: 2500, used: 0, remaining: 2500 } });
    expect(b.subscriptions).toEqual([expect.objectContaining({ id: subId, plan: 'collective', catalog: 'checkout', status: 'active' })]);
    expect((await owner.query('select customer_id from payment_customers where user_id = $1', [u.id])).rows).toEqual([{ customer_id: 'cus_plan1' }]);
  });

  it('when client_reference_id is absent, then the user is found by the e-mail, whatever its case', async () => {
    const u = await signUpAndIn(app);
    const event = checkoutCompletedEvent(
      checkoutSession({ client_reference_id: null, customer_details: { email: u.email.toUpperCase() }, metadata: { plan: 'starter', catalog: 'billing', kind: 'subscription' } }),
    );
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await settings(u)).plan).toBe('starter');
  });

  it('when no user matches, then 200 and nothing is granted to anyone', async () => {
    const event = checkoutCompletedEvent(creditPackSession('500', { client_reference_id: null, customer_details: { email: 'nobody@example.test' } }));
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await owner.query('select count(*)::int n from credit_purchases where event_id = $1', [event.id])).rows[0].n).toBe(0);
  });

  it('when a credit pack is paid, then its credits are added; a session still unpaid adds nothing', async () => {
    const u = await signUpAndIn(app);
    expect((await deliver(checkoutCompletedEvent(creditPackSession('200', { client_reference_id: u.id, payment_status: 'unpaid' })))).statusCode).toBe(200);
    expect((await settings(u)).credits).toBe(0);
    expect((await deliver(checkoutCompletedEvent(creditPackSession('200', { client_reference_id: u.id })))).statusCode).toBe(200);
    expect((await settings(u)).credits).toBe(15);
    expect((await call(app, { method: 'GET', url: '/api/credits', headers: { cookie: u.cookie } })).body.credits).toBe(15);
  });
});

describe('POST /api/webhooks/psp: exactly one effect', () => {
  it('when the same event is delivered twice, then both answer 200 and the credits are counted once', async () => {
    const u = await signUpAndIn(app);
    const event = checkoutCompletedEvent(creditPackSession('50', { client_reference_id: u.id }));
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await settings(u)).credits).toBe(5);
    expect(await ledger(event.id)).toBe(1);
  });

  it('when the same event is delivered ten times concurrently, then the credits are counted once', async () => {
    const u = await signUpAndIn(app);
    const event = checkoutCompletedEvent(creditPackSession('500', { client_reference_id: u.id }));
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(event)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect((await settings(u)).credits).toBe(30);
    expect((await owner.query('select count(*)::int n from credit_purchases where user_id = $1', [u.id])).rows[0].n).toBe(1);
  });

  it('when two different events confirm the same paid session, then the pack is credited once', async () => {
    const u = await signUpAndIn(app);
    const session = creditPackSession('200', { client_reference_id: u.id });
    await deliver(checkoutCompletedEvent(session));
    await deliver(stripeEvent('checkout.session.async_payment_succeeded', session));
    expect((await settings(u)).credits).toBe(15);
  });
});

describe('POST /api/webhooks/psp: bad signatures change nothing', () => {
  const cases: [string, (event: object) => ReturnType<typeof deliver>][] = [
    ['a tampered body', (e) => deliver(e, { body: JSON.stringify({ ...e, tampered: true }) })],
    ['a timestamp older than 300 s', (e) => deliver(e, { timestamp: nowS() - 301 })],
    ['another secret', (e) => deliver(e, { secret: 'whsec_not_the_right_one' })],
    ['no signature header', (e) => deliver(e, { header: null })],
    ['a malformed header', (e) => deliver(e, { header: 'garbage' })],
  ];
  it.each(cases)('when the delivery has %s, then 400 WEBHOOK_SIGNATURE_INVALID and no effect', async (_name, send) => {
    const u = await signUpAndIn(app);
    const event = checkoutCompletedEvent(creditPackSession('500', { client_reference_id: u.id }));
    const res = await send(event);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect((await settings(u)).credits).toBe(0);
    expect(await ledger(event.id)).toBe(0);
  });

  it('when a correctly signed body is not an event, then 400 WEBHOOK_PAYLOAD_INVALID', async () => {
    const res = await deliver({ hello: 'world' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('WEBHOOK_PAYLOAD_INVALID');
  });
});

describe('POST /api/webhooks/psp: subscriptions converge', () => {
  const subEvent = (type: 'created' | 'updated' | 'deleted', u: SignedIn, subId: string, status: string, created: number) =>
    subscriptionEvent(type, subscription({ id: subId, customer: `cus_${u.id.slice(0, 8)}`, status, metadata: { plan: 'solo', kind: 'subscription', userId: u.id } }), { created });

  it('when events arrive out of order, then the newest state wins whatever the delivery order', async () => {
    const u = await signUpAndIn(app);
    const subId = rid('sub');
    const t = nowS() - 100;
    // newest first: past_due at t+20, then the older created (t) and updated-active (t+10)
    for (const e of [subEvent('updated', u, subId, 'past_due', t + 20), subEvent('created', u, subId, 'incomplete', t), subEvent('updated', u, subId, 'active', t + 10)]) {
      expect((await deliver(e)).statusCode).toBe(200);
    }
    expect(await billing(u)).toMatchObject({ currentPlan: 'free', subscriptionStatus: 'past_due' });
    expect((await settings(u)).plan).toBe('free');
    await deliver(subEvent('updated', u, subId, 'active', t + 30));
    expect((await settings(u)).plan).toBe('solo');
  });

  it('when the subscription is deleted, then access is revoked and an older or later non-terminal event does not revive it', async () => {
    const u = await signUpAndIn(app);
    const subId = rid('sub');
    const t = nowS() - 100;
    await deliver(subEvent('created', u, subId, 'active', t));
    expect((await settings(u)).plan).toBe('solo');
    await deliver(subEvent('deleted', u, subId, 'active', t + 10)); // deleted means canceled, whatever the status field
    await deliver(subEvent('updated', u, subId, 'active', t + 5));
    await deliver(subEvent('updated', u, subId, 'active', t + 20));
    expect(await billing(u)).toMatchObject({ currentPlan: 'free', subscriptionStatus: 'canceled' });
  });

  it('when an invoice payment fails, then the subscription is past_due (no plan); a later paid invoice restores it', async () => {
    const u = await signUpAndIn(app);
    const subId = rid('sub');
    const customer = rid('cus');
    const t = nowS() - 100;
    await deliver(checkoutCompletedEvent(checkoutSession({ client_reference_id: u.id, customer, subscription: subId, metadata: { plan: 'network', kind: 'subscription' } }), { created: t }));
    expect((await settings(u)).plan).toBe('network');
    await deliver(invoiceEvent('payment_failed', invoice({ subscriptionId: subId, customer }), { created: t + 10 }));
    expect(await billing(u)).toMatchObject({ currentPlan: 'free', subscriptionStatus: 'past_due' });
    await deliver(invoiceEvent('payment_succeeded', invoice({ subscriptionId: subId, customer }), { created: t + 20 }));
    expect(await billing(u)).toMatchObject({ currentPlan: 'network', subscriptionStatus: 'active' });
  });

  it('when a subscription event names no user, then the stored customer finds them; an event before the checkout is attached later', async () => {
    const u = await signUpAndIn(app);
    const subId = rid('sub');
    const customer = rid('cus');
    const t = nowS() - 100;
    // the subscription's own event first, with no user in its metadata and an unknown customer
    await deliver(subscriptionEvent('created', subscription({ id: subId, customer, status: 'active', metadata: {}, priceId: 'price_unknown' }), { created: t + 1 }));
    expect((await owner.query('select user_id, plan from subscriptions where processor_subscription_id = $1', [subId])).rows).toEqual([{ user_id: null, plan: null }]);
    // then the checkout, which knows the user and the plan
    await deliver(checkoutCompletedEvent(checkoutSession({ client_reference_id: u.id, customer, subscription: subId, metadata: { plan: 'label', kind: 'subscription' } }), { created: t }));
    expect((await settings(u)).plan).toBe('label');
    await deliver(subscriptionEvent('updated', subscription({ id: subId, customer, status: 'unpaid', metadata: {} }), { created: t + 5 }));
    expect(await billing(u)).toMatchObject({ currentPlan: 'free', subscriptionStatus: 'unpaid' });
  });

  it('when an event type is not handled, then 200 OK and nothing but the ledger entry', async () => {
    const event = stripeEvent('customer.created', { id: rid('cus'), object: 'customer' });
    const res = await deliver(event);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('OK');
    expect(await ledger(event.id)).toBe(1);
  });
});

describe('POST /api/webhooks/psp without STRIPE_WEBHOOK_SECRET', async () => {
  const bare = await startTestApp();
  it('answers 503 WEBHOOK_NOT_CONFIGURED and applies nothing', async () => {
    const event = checkoutCompletedEvent(creditPackSession('50'));
    const { body, header } = signedStripeEvent(SECRET, event);
    const res = await bare.app.inject({ method: 'POST', url: '/api/webhooks/psp', headers: { 'content-type': 'application/json', 'psp-signature': header }, payload: body });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('WEBHOOK_NOT_CONFIGURED');
  });
});
