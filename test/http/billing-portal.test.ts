import { afterAll, describe, expect, it } from 'vitest';
import { call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startFakeStripe, stripeJson, type Responder } from '../support/payments/fake-stripe-server.js';
import { startTestApp } from '../support/test-app.js';

/**
 * Changing or cancelling a plan (CONTRACT.md section 7): POST /api/billing {"action": "portal"},
 * the development processor's portal (GET/POST /api/psp/dev/portal, shown by the console's
 * /billing/portal page), 409 ALREADY_SUBSCRIBED for a second plan of a catalog, and Stripe's
 * billing portal through the real SDK against the Stripe-wire stand-in.
 */
const { app, infra, config } = await startTestApp();
const owner = infra.pools.owner;

/** A second service with Stripe, pointed at the Stripe-wire stand-in. */
let responder: Responder = (req) =>
  req.path === '/v1/billing_portal/sessions'
    ? { status: 200, body: { id: 'bps_test_1', object: 'billing_portal.session', url: 'https://billing.stripe.com/p/session/test_1', customer: req.form.get('customer'), return_url: req.form.get('return_url') } }
    : { status: 404, body: stripeJson.error('No such route', 'invalid_request_error') };
const fake = await startFakeStripe((req) => responder(req));
afterAll(() => fake.close());
const s = await startTestApp({
  env: { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_WEBHOOK_SECRET: 'whsec_test_fake', STRIPE_API_BASE_URL: `http://127.0.0.1:${fake.port}`, STRIPE_TIMEOUT_MS: '300' },
});


const billingPost = (u: SignedIn, payload: object) => call(app, { method: 'POST', url: '/api/billing', headers: u.headers, payload });
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
const sessionOf = (url: string) => new URL(url).searchParams.get('session')!;
const plans = async (u: SignedIn) =>
  (await owner.query(`select catalog, plan, status from subscriptions where user_id = $1 order by created_at`, [u.id])).rows;

/** A development plan checkout, opened and paid (its link followed). */
async function buy(u: SignedIn, plan: string) {
  const res = await billingPost(u, { action: 'create-checkout', plan });
  expect(res.status).toBe(200);
  const paid = await call(app, { method: 'GET', url: pathOf(res.body.url) });
  expect(paid.status).toBe(302);
  return paid.headers.location as string;
}

describe('POST /api/billing {"action": "portal"} with the development processor', () => {
  it('when a subscriber switches and then cancels in the portal, then GET /api/billing follows each change', async () => {
    const u = await signUpAndIn(app);
    await buy(u, 'starter');
    expect(await plans(u)).toEqual([{ catalog: 'billing', plan: 'starter', status: 'active' }]);

    const portal = await billingPost(u, { action: 'portal' });
    expect(portal.status).toBe(200);
    expect(portal.body.url.startsWith(`${config.APP_URL}/billing/portal?session=`)).toBe(true);
    const session = sessionOf(portal.body.url);

    const page = await call(app, { method: 'GET', url: `/api/psp/dev/portal?session=${encodeURIComponent(session)}`, headers: u.headers });
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      returnUrl: `${config.APP_URL}/pricing?portal=returned`,
      subscriptions: [{ id: expect.stringMatching(/^sub_dev_/), plan: 'starter', catalog: 'billing', status: 'active', switchTo: ['pro', 'scale'] }],
    });
    const subscriptionId = page.body.subscriptions[0].id;

    const switched = await call(app, { method: 'POST', url: '/api/psp/dev/portal', headers: u.headers, payload: { session, subscriptionId, action: 'switch', plan: 'pro' } });
    expect(switched).toMatchObject({ status: 200, body: { success: true, returnUrl: `${config.APP_URL}/pricing?portal=returned` } });
    expect(await plans(u)).toEqual([{ catalog: 'billing', plan: 'pro', status: 'active' }]);
    const billing = await call(app, { method: 'GET', url: '/api/billing', headers: { cookie: u.cookie } });
    expect(billing.body.subscriptions).toEqual([expect.objectContaining({ plan: 'pro', status: 'active' })]);

    const canceled = await call(app, { method: 'POST', url: '/api/psp/dev/portal', headers: u.headers, payload: { session, subscriptionId, action: 'cancel' } });
    expect(canceled.status).toBe(200);
    expect(await plans(u)).toEqual([{ catalog: 'billing', plan: 'pro', status: 'canceled' }]);
    // canceled is final: the portal has nothing left to change, and a new plan can be bought
    expect((await call(app, { method: 'GET', url: `/api/psp/dev/portal?session=${encodeURIComponent(session)}`, headers: u.headers })).body.subscriptions).toEqual([]);
    expect((await call(app, { method: 'POST', url: '/api/psp/dev/portal', headers: u.headers, payload: { session, subscriptionId, action: 'switch', plan: 'scale' } })).status).toBe(404);
    expect((await billingPost(u, { action: 'create-checkout', plan: 'scale' })).status).toBe(200);
  });

  it('when the portal is asked to change what is not the session\'s, or with bad input, then 404 or 400 and nothing changes', async () => {
    const a = await signUpAndIn(app);
    const b = await signUpAndIn(app);
    await buy(a, 'starter');
    await buy(b, 'starter');
    const sessionB = sessionOf((await billingPost(b, { action: 'portal' })).body.url);
    const subA = (await owner.query(`select processor_subscription_id as id from subscriptions where user_id = $1`, [a.id])).rows[0].id;
    const post = (payload: object) => call(app, { method: 'POST', url: '/api/psp/dev/portal', headers: b.headers, payload });

    expect((await post({ session: sessionB, subscriptionId: subA, action: 'cancel' })).status).toBe(404);
    const tampered = `${sessionB.split('.')[0]}x.${sessionB.split('.')[1]}`;
    expect((await post({ session: tampered, subscriptionId: subA, action: 'cancel' })).body.code).toBe('DEV_CHECKOUT_INVALID');
    // a checkout link is not a portal session
    const checkoutLink = (await billingPost(b, { action: 'buy-credits', pack: '50' })).body.url;
    expect((await post({ session: sessionOf(checkoutLink), subscriptionId: subA, action: 'cancel' })).status).toBe(400);
    const subB = (await owner.query(`select processor_subscription_id as id from subscriptions where user_id = $1`, [b.id])).rows[0].id;
    // another catalog's plan, the same plan, an unknown plan, an unknown action
    expect((await post({ session: sessionB, subscriptionId: subB, action: 'switch', plan: 'solo' })).status).toBe(400);
    expect((await post({ session: sessionB, subscriptionId: subB, action: 'switch', plan: 'starter' })).status).toBe(400);
    expect((await post({ session: sessionB, subscriptionId: subB, action: 'switch', plan: 'gold' })).status).toBe(400);
    expect((await post({ session: sessionB, subscriptionId: subB, action: 'refund' })).status).toBe(400);
    expect(await plans(a)).toEqual([{ catalog: 'billing', plan: 'starter', status: 'active' }]);
    expect(await plans(b)).toEqual([{ catalog: 'billing', plan: 'starter', status: 'active' }]);
  });

  it('attack: when the portal link leaks (browser history, a referrer, a shared screen), then without its user\'s sign-in it neither shows nor changes anything', async () => {
    const holder = await signUpAndIn(app);
    const stranger = await signUpAndIn(app);
    await buy(holder, 'starter');
    const leaked = sessionOf((await billingPost(holder, { action: 'portal' })).body.url);
    const subscriptionId = (await owner.query(`select processor_subscription_id as id from subscriptions where user_id = $1`, [holder.id])).rows[0].id;
    const url = `/api/psp/dev/portal?session=${encodeURIComponent(leaked)}`;
    const change = { session: leaked, subscriptionId, action: 'cancel' };

    expect(await call(app, { method: 'GET', url })).toMatchObject({ status: 401, body: { code: 'AUTH_REQUIRED' } });
    expect(await call(app, { method: 'POST', url: '/api/psp/dev/portal', payload: change })).toMatchObject({ status: 401, body: { code: 'AUTH_REQUIRED' } });
    // another user, signed in, holding the link: as if it did not exist
    expect(await call(app, { method: 'GET', url, headers: stranger.headers })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await call(app, { method: 'POST', url: '/api/psp/dev/portal', headers: stranger.headers, payload: change })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await plans(holder)).toEqual([{ catalog: 'billing', plan: 'starter', status: 'active' }]);
    // its own user, signed in, still can
    expect((await call(app, { method: 'POST', url: '/api/psp/dev/portal', headers: holder.headers, payload: change })).status).toBe(200);
    expect(await plans(holder)).toEqual([{ catalog: 'billing', plan: 'starter', status: 'canceled' }]);
  });

  it('when the caller has bought nothing, then 409 NO_BILLING_CUSTOMER; without credentials 401', async () => {
    const u = await signUpAndIn(app);
    expect(await billingPost(u, { action: 'portal' })).toMatchObject({ status: 409, body: { code: 'NO_BILLING_CUSTOMER', error: expect.any(String) } });
    expect((await call(app, { method: 'POST', url: '/api/billing', payload: { action: 'portal' } })).status).toBe(401);
  });
});

describe('a second plan of a catalog', () => {
  it('when the caller already has an active plan of the catalog, then checkout is 409 ALREADY_SUBSCRIBED naming the portal; another catalog is fine', async () => {
    const u = await signUpAndIn(app);
    await buy(u, 'starter');
    const again = await billingPost(u, { action: 'create-checkout', plan: 'pro' });
    expect(again).toMatchObject({ status: 409, body: { code: 'ALREADY_SUBSCRIBED', catalog: 'billing', plan: 'starter', use: 'POST /api/billing {"action": "portal"}' } });
    expect((await call(app, { method: 'GET', url: '/api/psp/checkout?plan=solo', headers: { cookie: u.cookie } })).status).toBe(302);
  });

  it('attack: two checkouts opened at once for one catalog cannot both become subscriptions', async () => {
    const u = await signUpAndIn(app);
    // both opened before either is paid (two tabs, or two concurrent requests)
    const [first, second] = await Promise.all([billingPost(u, { action: 'create-checkout', plan: 'starter' }), billingPost(u, { action: 'create-checkout', plan: 'pro' })]);
    expect([first.status, second.status]).toEqual([200, 200]);
    // paying both at the same moment, then the second again: one plan, whatever the order
    await call(app, { method: 'GET', url: pathOf(first.body.url) });
    const late = await call(app, { method: 'GET', url: pathOf(second.body.url) });
    expect(late.headers.location).toBe(`${config.APP_URL}/pricing?checkout=already-subscribed`);
    expect(await plans(u)).toEqual([{ catalog: 'billing', plan: 'starter', status: 'active' }]);
    // the first link opened again is the same payment (one effect)
    await call(app, { method: 'GET', url: pathOf(first.body.url) });
    expect(await plans(u)).toEqual([{ catalog: 'billing', plan: 'starter', status: 'active' }]);
    // and once it is active, the next checkout is refused before any processor call
    expect((await billingPost(u, { action: 'create-checkout', plan: 'scale' })).status).toBe(409);
  });
});

describe('POST /api/billing {"action": "portal"} with Stripe', () => {
  it('when the caller has a customer, then a billing portal session for that customer returning to the pricing page; Stripe down: 502', async () => {
    const u = await signUpAndIn(s.app);
    await s.infra.pools.owner.query(`insert into payment_customers (user_id, customer_id) values ($1, 'cus_portal_1')`, [u.id]);
    const res = await call(s.app, { method: 'POST', url: '/api/billing', headers: u.headers, payload: { action: 'portal' } });
    expect(res).toMatchObject({ status: 200, body: { url: 'https://billing.stripe.com/p/session/test_1' } });
    const sent = fake.requests.filter((r) => r.path === '/v1/billing_portal/sessions');
    expect(sent.map((r) => [r.form.get('customer'), r.form.get('return_url')])).toEqual([['cus_portal_1', `${s.config.APP_URL}/pricing?portal=returned`]]);

    responder = () => ({ status: 500, body: stripeJson.error('boom') });
    const down = await call(s.app, { method: 'POST', url: '/api/billing', headers: u.headers, payload: { action: 'portal' } });
    expect(down).toMatchObject({ status: 502, body: { code: 'UPSTREAM_UNAVAILABLE' } });
    // the development portal's page does not exist with Stripe
    expect((await call(s.app, { method: 'GET', url: '/api/psp/dev/portal?session=x.y', headers: u.headers })).status).toBe(404);
  });
});
