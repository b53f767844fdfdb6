import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startFakeStripe, stripeJson, type RecordedRequest, type Responder } from '../support/payments/fake-stripe-server.js';
import { startTestApp } from '../support/test-app.js';

/** The Stripe adapter against a local stand-in of the Stripe API, through the whole service. */
const happy: Responder = (req) =>
  req.path === '/v1/customers'
    ? { status: 200, body: stripeJson.customer(`cus_${Math.random().toString(36).slice(2, 10)}`, req.form.get('email') ?? '') }
    : { status: 200, body: stripeJson.checkoutSession(`cs_test_${Math.random().toString(36).slice(2, 10)}`) };
let responder: Responder = happy;
const fake = await startFakeStripe((req) => responder(req));
afterAll(() => fake.close());

const { app, infra, config } = await startTestApp({
  env: {
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_WEBHOOK_SECRET: 'whsec_test_fake',
    STRIPE_API_BASE_URL: `http://127.0.0.1:${fake.port}`,
    STRIPE_TIMEOUT_MS: '300',
    STRIPE_PRICE_SOLO: 'price_solo_live',
    STRIPE_PRICE_PRO: 'price_pro_live',
    STRIPE_PRICE_CREDITS_50: 'price_c50',
    STRIPE_PRICE_CREDITS_200: 'price_c200',
    STRIPE_PRICE_CREDITS_500: 'price_c500',
  },
});
const owner = infra.pools.owner;

beforeEach(() => {
  responder = happy;
  fake.requests.length = 0;
});

const billingPost = (u: SignedIn, payload: object) => call(app, { method: 'POST', url: '/api/billing', headers: u.headers, payload });
const customers = async (u: SignedIn) => (await owner.query('select customer_id from payment_customers where user_id = $1', [u.id])).rows.map((r) => r.customer_id);
const sessions = () => fake.requests.filter((r) => r.path === '/v1/checkout/sessions');

describe('Stripe checkout', () => {
  it('creates one customer for the user, keeps it, and reuses it for every later checkout', async () => {
    const u = await signUpAndIn(app);
    const first = await billingPost(u, { action: 'create-checkout', plan: 'pro' });
    expect(first.status).toBe(200);
    expect(first.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/customers', '/v1/checkout/sessions']);
    const [customerId] = await customers(u);
    expect(customerId).toMatch(/^cus_/);
    const s = sessions()[0]!.form;
    expect(Object.fromEntries(['mode', 'customer', 'client_reference_id', 'line_items[0][price]', 'metadata[plan]', 'metadata[catalog]', 'metadata[kind]', 'success_url', 'cancel_url'].map((k) => [k, s.get(k)]))).toEqual({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: u.id,
      'line_items[0][price]': 'price_pro_live',
      'metadata[plan]': 'pro',
      'metadata[catalog]': 'billing',
      'metadata[kind]': 'subscription',
      success_url: `${config.APP_URL}/onboarding`,
      cancel_url: `${config.APP_URL}/pricing?checkout=canceled`,
    });

    fake.requests.length = 0;
    const credits = await billingPost(u, { action: 'buy-credits', pack: '50' });
    expect(credits.body).toMatchObject({ success: true, credits: 5, price: '5.00', url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com/) });
    const redirect = await call(app, { method: 'GET', url: '/api/psp/checkout?plan=solo', headers: { cookie: u.cookie } });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toMatch(/^https:\/\/checkout\.stripe\.com/);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/checkout/sessions', '/v1/checkout/sessions']);
    expect(sessions().map((r) => [r.form.get('customer'), r.form.get('mode'), r.form.get('line_items[0][price]')])).toEqual([
      [customerId, 'payment', 'price_c50'],
      [customerId, 'subscription', 'price_solo_live'],
    ]);
    expect(await customers(u)).toEqual([customerId]);
  });

  it('GET /api/psp/credits sends only a listed price to Stripe; another price is 400 with no request', async () => {
    const u = await signUpAndIn(app);
    const ok = await call(app, { method: 'GET', url: '/api/psp/credits?price=price_c200', headers: { cookie: u.cookie } });
    expect(ok.status).toBe(302);
    expect(sessions().map((r) => [r.form.get('line_items[0][price]'), r.form.get('metadata[pack]')])).toEqual([['price_c200', '200']]);
    fake.requests.length = 0;
    const bad = await call(app, { method: 'GET', url: '/api/psp/credits?price=price_pro_live', headers: { cookie: u.cookie } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('UNKNOWN_PRICE');
    expect(fake.requests).toEqual([]);
  });

  it('when a plan or the storage upgrade has no configured price, then 503 PRICE_NOT_CONFIGURED and Stripe is not called', async () => {
    const u = await signUpAndIn(app);
    const plan = await billingPost(u, { action: 'create-checkout', plan: 'scale' });
    expect(plan.status).toBe(503);
    expect(plan.body.code).toBe('PRICE_NOT_CONFIGURED');
    const storage = await call(app, { method: 'POST', url: '/api/psp/storage-upgrade', headers: u.headers });
    expect(storage.status).toBe(503);
    expect(fake.requests).toEqual([]);
  });

  it('the development completion page does not exist with Stripe', async () => {
    const res = await call(app, { method: 'GET', url: '/api/psp/dev/complete?session=anything' });
    expect(res.status).toBe(404);
  });
});

describe('Stripe failures', () => {
  const failures: [string, Responder][] = [
    ['answers 500', (req: RecordedRequest) => ({ status: 500, body: stripeJson.error(`boom on ${req.path}`) })],
    ['times out', () => 'hang'],
    ['fails only the session', (req: RecordedRequest) => (req.path === '/v1/customers' ? happy(req) : { status: 500, body: stripeJson.error('boom') })],
  ];
  it.each(failures)('when Stripe %s, then 502 UPSTREAM_UNAVAILABLE and nothing is recorded', async (_name, failing) => {
    const u = await signUpAndIn(app);
    responder = failing;
    const res = await billingPost(u, { action: 'create-checkout', plan: 'pro' });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(JSON.stringify(res.body)).not.toContain('boom');
    expect(await customers(u)).toEqual([]);
    const redirect = await call(app, { method: 'GET', url: '/api/psp/checkout?plan=solo', headers: { cookie: u.cookie } });
    expect(redirect.status).toBe(502);
    expect(await customers(u)).toEqual([]);
  });
});

describe('production without a processor', async () => {
  const prod = await startTestApp({ env: { NODE_ENV: 'production' } });
  it('sells nothing (503 PAYMENTS_NOT_CONFIGURED) rather than giving plans away', async () => {
    const u = await signUpAndIn(prod.app);
    const res = await call(prod.app, { method: 'POST', url: '/api/billing', headers: u.headers, payload: { action: 'create-checkout', plan: 'pro' } });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('PAYMENTS_NOT_CONFIGURED');
    expect((await call(prod.app, { method: 'GET', url: '/api/psp/dev/complete?session=x' })).status).toBe(404);
  });
});
