import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, lastMailTo, signUpAndIn, signUpVerifiedAndIn, tokenFrom, uniqueEmail, type SignedIn } from '../support/http-client.js';
import { checkoutCompletedEvent, checkoutSession, creditPackSession, signedStripeEvent, subscription, subscriptionEvent } from '../support/payments/stripe-events.js';
import { startTestApp } from '../support/test-app.js';

const SECRET = `whsec_${randomBytes(24).toString('base64url')}`;
const ADMIN = uniqueEmail('admin');
const { app, infra, logs } = await startTestApp({ env: { STRIPE_WEBHOOK_SECRET: SECRET, ADMIN_EMAILS: ADMIN } });
const owner = infra.pools.owner;

function deliver(event: object) {
  const { body, header } = signedStripeEvent(SECRET, event);
  return app.inject({ method: 'POST', url: '/api/webhooks/psp', headers: { 'content-type': 'application/json', 'psp-signature': header }, payload: body });
}
const rid = (p: string) => `${p}_${randomBytes(8).toString('hex')}`;
const nowS = () => Math.floor(Date.now() / 1000);
const credits = async (u: SignedIn) => (await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).body.credits;
const kept = async (eventId: string) =>
  (await owner.query('select email, customer_id, attached_at, attached_user_id, attached_via, attached_by_event_id, attached_outcome from unmatched_payment_events where event_id = $1', [eventId])).rows[0];
const pendingOf = async (customer: string) =>
  (await owner.query('select count(*)::int n from unmatched_payment_events where customer_id = $1 and attached_at is null', [customer])).rows[0].n;
/** A paid credit pack bought by someone this service does not know. */
const strangersPack = (pack: string, over: Record<string, unknown> = {}) =>
  checkoutCompletedEvent(creditPackSession(pack, { client_reference_id: null, customer_details: { email: uniqueEmail('stranger') }, customer: rid('cus'), ...over }));
async function verify(email: string) {
  const mail = await lastMailTo(owner, email);
  return call(app, { method: 'GET', url: `/api/auth/verify-email?token=${encodeURIComponent(tokenFrom(mail!.text))}` });
}

describe('paid events that match no user are kept', () => {
  it('when a paid pack matches no user, then it is kept and logged at warn without the e-mail; registering attaches nothing; verifying the address adds the credits once', async () => {
    const email = uniqueEmail('buyer');
    const customer = rid('cus');
    const event = checkoutCompletedEvent(creditPackSession('500', { client_reference_id: null, customer_details: { email: email.toUpperCase() }, customer }));
    expect((await deliver(event)).statusCode).toBe(200);
    expect(await kept(event.id)).toMatchObject({ email, customer_id: customer, attached_at: null });
    const line = logs.map((l) => JSON.parse(l)).find((l) => l.eventId === event.id);
    expect(line).toMatchObject({ level: 40, outcome: 'unmatched', customerId: customer, hasEmail: true });
    expect(JSON.stringify(line).toLowerCase()).not.toContain(email);

    const u = await signUpAndIn(app, { email });
    expect(await credits(u)).toBe(0);
    expect((await kept(event.id)).attached_at).toBeNull();

    expect((await verify(email)).status).toBe(200);
    expect(await credits(u)).toBe(30);
    expect(await kept(event.id)).toMatchObject({ attached_user_id: u.id, attached_via: 'verified-email', attached_outcome: 'credits-added', attached_at: expect.any(Date) });
    expect((await deliver(event)).statusCode).toBe(200); // a redelivery: the ledger has it
    expect(await credits(u)).toBe(30);

    // The record outlives the account it was attached to.
    expect((await call(app, { method: 'DELETE', url: '/api/settings', headers: u.headers })).status).toBe(200);
    expect(await kept(event.id)).toMatchObject({ attached_user_id: null, attached_via: 'verified-email' });
  });

  it('when a plan checkout and its subscription event match no user, then a later event naming the owner attaches both', async () => {
    const u = await signUpAndIn(app);
    const customer = rid('cus');
    const subId = rid('sub');
    const t = nowS() - 100;
    const early = subscriptionEvent('created', subscription({ id: subId, customer, status: 'active', metadata: {}, priceId: 'price_unknown' }), { created: t });
    const checkout = checkoutCompletedEvent(
      checkoutSession({ client_reference_id: null, customer_details: { email: uniqueEmail('stranger') }, customer, subscription: subId, metadata: { plan: 'collective', kind: 'subscription' } }),
      { created: t },
    );
    for (const e of [early, checkout]) expect((await deliver(e)).statusCode).toBe(200);
    expect(await pendingOf(customer)).toBe(2);
    expect((await owner.query('select user_id from subscriptions where processor_subscription_id = $1', [subId])).rows).toEqual([{ user_id: null }]);

    const naming = subscriptionEvent('updated', subscription({ id: subId, customer, status: 'active', metadata: { userId: u.id }, priceId: 'price_unknown' }), { created: t + 10 });
    expect((await deliver(naming)).statusCode).toBe(200);
    expect(await pendingOf(customer)).toBe(0);
    expect(await kept(checkout.id)).toMatchObject({ attached_user_id: u.id, attached_via: 'later-event', attached_by_event_id: naming.id });
    const billing = (await call(app, { method: 'GET', url: '/api/billing', headers: { cookie: u.cookie } })).body;
    expect(billing).toMatchObject({ currentPlan: 'collective', subscriptionStatus: 'active' });
    expect((await owner.query('select customer_id from payment_customers where user_id = $1', [u.id])).rows).toEqual([{ customer_id: customer }]);
  });

  it('when a later checkout names a customer now known, then the kept pack is attached, and a pack for that customer is matched from then on', async () => {
    const u = await signUpAndIn(app);
    const customer = rid('cus');
    const lost = strangersPack('500', { customer });
    await deliver(lost);
    await deliver(checkoutCompletedEvent(creditPackSession('50', { client_reference_id: u.id, customer })));
    expect(await credits(u)).toBe(35);
    expect(await kept(lost.id)).toMatchObject({ attached_user_id: u.id, attached_via: 'later-event' });
    await deliver(strangersPack('200', { customer })); // no reference, unknown e-mail, known customer
    expect(await credits(u)).toBe(50);
    expect(await pendingOf(customer)).toBe(0);
  });

  it("when a checkout matches a user only by an e-mail they have not verified, then it is applied (the contract's rule) but attaches nothing else", async () => {
    const u = await signUpAndIn(app);
    const customer = rid('cus');
    const lost = strangersPack('500', { customer });
    await deliver(lost);
    await deliver(checkoutCompletedEvent(creditPackSession('50', { client_reference_id: null, customer_details: { email: u.email }, customer })));
    expect(await credits(u)).toBe(5);
    expect((await kept(lost.id)).attached_at).toBeNull();
  });

  it('when an unpaid checkout matches no user, then nothing is kept (its paid confirmation will be)', async () => {
    const event = strangersPack('50', { payment_status: 'unpaid' });
    expect((await deliver(event)).statusCode).toBe(200);
    expect(await kept(event.id)).toBeUndefined();
  });
});

describe('kept events are attached exactly once under races', () => {
  it('when verification, redeliveries and an event naming the owner race for one kept pack, then it is credited once', async () => {
    for (let round = 0; round < 4; round++) {
      const email = uniqueEmail('racer');
      const customer = rid('cus');
      const lost = checkoutCompletedEvent(creditPackSession('500', { client_reference_id: null, customer_details: { email }, customer }));
      await deliver(lost);
      const u = await signUpAndIn(app, { email });
      const naming = checkoutCompletedEvent(creditPackSession('50', { client_reference_id: u.id, customer }));
      const answers = await Promise.all([verify(email).then((r) => r.status), ...Array.from({ length: 4 }, () => deliver(lost).then((r) => r.statusCode)), deliver(naming).then((r) => r.statusCode)]);
      expect(answers).toEqual(Array(6).fill(200));
      expect(await credits(u)).toBe(35);
      expect((await owner.query('select count(*)::int n from credit_purchases where user_id = $1', [u.id])).rows[0].n).toBe(2);
      expect((await kept(lost.id)).attached_user_id).toBe(u.id);
    }
  });

  it('when a kept event and an event naming its customer arrive together, then neither passes the other: both packs reach the owner', async () => {
    for (let round = 0; round < 8; round++) {
      const u = await signUpAndIn(app);
      const customer = rid('cus');
      const lost = strangersPack('500', { customer });
      const naming = checkoutCompletedEvent(creditPackSession('50', { client_reference_id: u.id, customer }));
      const answers = await Promise.all([deliver(lost), deliver(naming)]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      expect(await credits(u)).toBe(35);
      expect(await pendingOf(customer)).toBe(0);
    }
  });
});

describe('GET /api/admin/payments/unmatched', () => {
  it('when an admin asks, then the kept events are listed with ids, e-mail, customer and times; pending ones can be asked for alone', async () => {
    const admin = await signUpVerifiedAndIn(app, owner, { email: ADMIN });
    const lost = strangersPack('200');
    await deliver(lost);
    const res = await call(app, { method: 'GET', url: '/api/admin/payments/unmatched?state=pending&limit=200', headers: { cookie: admin.cookie } });
    expect(res.status).toBe(200);
    const session = lost.data.object as { customer: string; customer_details: { email: string } };
    expect(res.body.events).toContainEqual({
      id: lost.id,
      type: 'checkout.session.completed',
      email: session.customer_details.email,
      customerId: session.customer,
      subscriptionId: null,
      plan: null,
      catalog: null,
      pack: '200',
      createdAt: new Date(lost.created * 1000).toISOString(),
      receivedAt: expect.any(String),
      attachedAt: null,
      attachedUserId: null,
      attachedVia: null,
      attachedByEventId: null,
      attachedOutcome: null,
    });
    expect(res.body.events.every((e: { attachedAt: string | null }) => e.attachedAt === null)).toBe(true);
    const attached = await call(app, { method: 'GET', url: '/api/admin/payments/unmatched?state=attached&limit=200', headers: { cookie: admin.cookie } });
    expect(attached.body.events.length).toBeGreaterThan(0);
    expect(attached.body.events.every((e: { attachedAt: string | null; attachedVia: string }) => e.attachedAt !== null && e.attachedVia)).toBe(true);
    const bad = await call(app, { method: 'GET', url: '/api/admin/payments/unmatched?limit=500', headers: { cookie: admin.cookie } });
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  it('when a signed-in user who is not an admin asks, then 403 ADMIN_REQUIRED; without credentials 401', async () => {
    const u = await signUpAndIn(app);
    const res = await call(app, { method: 'GET', url: '/api/admin/payments/unmatched', headers: { cookie: u.cookie } });
    expect(res).toMatchObject({ status: 403, body: { code: 'ADMIN_REQUIRED' } });
    expect((await call(app, { method: 'GET', url: '/api/admin/payments/unmatched' })).status).toBe(401);
  });
});
