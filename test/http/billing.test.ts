import { describe, expect, it } from 'vitest';
import { ReadByokKeys } from '../../src/application/billing/read-byok-keys.use-case.js';
import { USAGE_METER } from '../../src/application/ports/usage-meter.port.js';
import type { UserId } from '../../src/domain/shared/ids.js';
import { bearer, call, signUpAndIn, signUpVerifiedAndIn, uniqueEmail, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

const ADMIN = uniqueEmail('admin');
const { app, infra, container, logs, config } = await startTestApp({ env: { ADMIN_EMAILS: ADMIN } });
const owner = infra.pools.owner;

const billingPost = (u: SignedIn, payload: unknown) => call(app, { method: 'POST', url: '/api/billing', headers: u.headers, payload: payload as object });
const get = (u: SignedIn, url: string) => call(app, { method: 'GET', url, headers: { cookie: u.cookie } });
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
/** Opens a development checkout link as the browser would: its page completes the purchase and redirects. */
async function pay(url: string) {
  expect(url.startsWith(`${config.APP_URL}/api/psp/dev/complete?session=`)).toBe(true);
  return call(app, { method: 'GET', url: pathOf(url) });
}

describe('billing without credentials', () => {
  it.each([
    ['GET', '/api/billing'],
    ['POST', '/api/billing'],
    ['GET', '/api/psp/checkout?plan=solo'],
    ['GET', '/api/psp/credits?price=price_dev_credits_50'],
    ['POST', '/api/psp/storage-upgrade'],
    ['GET', '/api/credits'],
    ['GET', '/api/billing/subscriptions/sub_x'],
  ] as const)('%s %s answers 401 AUTH_REQUIRED', async (method, url) => {
    const res = await call(app, { method, url, ...(method === 'POST' ? { payload: { action: 'get-usage' } } : {}) });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH_REQUIRED');
  });
});

describe('GET /api/billing', () => {
  it('answers the plans on sale, a free plan, no subscription, no BYOK and zero usage for a new user', async () => {
    const u = await signUpAndIn(app);
    const res = await get(u, '/api/billing');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      plans: {
        starter: { name: 'Starter', price: 19, dailyUnits: 600, features: expect.any(Array) },
        pro: { name: 'Pro', price: 39, dailyUnits: 1000, features: expect.any(Array) },
        scale: { name: 'Scale', price: 79, dailyUnits: 2500, features: expect.any(Array) },
      },
      currentPlan: 'free',
      subscriptionStatus: 'none',
      byokEnabled: false,
      usage: { dailyUnits: 0, used: 0, remaining: 0 },
      subscriptions: [],
    });
  });

  it('accepts an API key and a JWT as well as the session', async () => {
    const u = await signUpAndIn(app);
    const { key } = (await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'billing' } })).body;
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: u.headers })).body.token;
    expect((await call(app, { method: 'GET', url: '/api/billing', headers: bearer(key) })).status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/billing', headers: bearer(jwt) })).status).toBe(200);
    expect((await call(app, { method: 'POST', url: '/api/billing', headers: bearer(jwt), payload: { action: 'get-usage' } })).status).toBe(200);
  });

  it('when a session posts without its CSRF token, then 403', async () => {
    const u = await signUpAndIn(app);
    const res = await call(app, { method: 'POST', url: '/api/billing', headers: { cookie: u.cookie }, payload: { action: 'get-usage' } });
    expect(res.status).toBe(403);
  });
});

describe('POST /api/billing: bad input', () => {
  it.each([
    [{ action: 'refund-everything' }, 'UNKNOWN_ACTION'],
    [{}, 'VALIDATION_ERROR'],
    [{ action: 'create-checkout', plan: 'solo' }, 'VALIDATION_ERROR'],
    [{ action: 'create-checkout' }, 'VALIDATION_ERROR'],
    [{ action: 'buy-credits', pack: '100' }, 'VALIDATION_ERROR'],
    [{ action: 'buy-credits' }, 'VALIDATION_ERROR'],
    [{ action: 'enable-byok', provider: 'openai' }, 'VALIDATION_ERROR'],
    [{ action: 'enable-byok', provider: 'ollama', apiKey: 'long-enough-key' }, 'VALIDATION_ERROR'],
    [{ action: 'enable-byok', provider: 'openai', apiKey: 'short' }, 'VALIDATION_ERROR'],
  ])('when the body is %j, then 400 %s and nothing is recorded', async (payload, code) => {
    const u = await signUpAndIn(app);
    const res = await billingPost(u, payload);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect((await owner.query('select count(*)::int n from payment_customers where user_id = $1', [u.id])).rows[0].n).toBe(0);
  });

  it.each([['/api/psp/checkout?plan=pro'], ['/api/psp/checkout?plan=free'], ['/api/psp/checkout'], ['/api/psp/credits']])('GET %s answers 400', async (url) => {
    const u = await signUpAndIn(app);
    const res = await get(u, url);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  it('when a credit price is not on the allowed list, then 400 UNKNOWN_PRICE', async () => {
    const u = await signUpAndIn(app);
    const res = await get(u, '/api/psp/credits?price=price_dev_pro');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNKNOWN_PRICE');
  });
});

describe('buying in the development processor, end to end', () => {
  it('a user buys a subscription and a credit pack; the plan and credits show in settings, billing and credits', async () => {
    const u = await signUpAndIn(app);
    const checkout = await billingPost(u, { action: 'create-checkout', plan: 'pro' });
    expect(checkout.status).toBe(200);
    expect(Object.keys(checkout.body)).toEqual(['url']);
    expect((await get(u, '/api/settings')).body.plan).toBe('free'); // nothing before the payment
    const paid = await pay(checkout.body.url);
    expect(paid.status).toBe(302);
    expect(paid.headers.location).toBe(`${config.APP_URL}/onboarding`);
    expect((await get(u, '/api/settings')).body.plan).toBe('pro');

    const credits = await billingPost(u, { action: 'buy-credits', pack: '200' });
    expect(credits.body).toEqual({ success: true, credits: 15, price: '15.00', url: expect.any(String) });
    expect((await get(u, '/api/settings')).body.credits).toBe(0);
    // a paid pack returns to the pricing page, where it was bought
    expect((await pay(credits.body.url)).headers.location).toBe(`${config.APP_URL}/pricing?checkout=credits`);
    expect((await get(u, '/api/settings')).body).toMatchObject({ plan: 'pro', credits: 15 });
    expect((await get(u, '/api/credits')).body).toEqual({
      credits: 15,
      packs: [{ pack: '50', credits: 5, price: 5 }, { pack: '200', credits: 15, price: 15 }, { pack: '500', credits: 30, price: 30 }],
    });
    const b = (await get(u, '/api/billing')).body;
    expect(b).toMatchObject({ currentPlan: 'pro', subscriptionStatus: 'active', usage: { dailyUnits: 1000, used: 0, remaining: 1000 } });
    // one processor customer for both checkouts
    expect((await owner.query('select count(*)::int n from payment_customers where user_id = $1', [u.id])).rows[0].n).toBe(1);

    // following a link again is one effect: the ledger has its events
    await pay(credits.body.url);
    await pay(checkout.body.url);
    expect((await get(u, '/api/settings')).body.credits).toBe(15);
    expect((await get(u, '/api/billing')).body.subscriptions).toHaveLength(1);
  });

  it('GET /api/psp/checkout redirects to the checkout; paying grants the checkout plan', async () => {
    const u = await signUpAndIn(app);
    const res = await get(u, '/api/psp/checkout?plan=solo');
    expect(res.status).toBe(302);
    await pay(String(res.headers.location));
    expect((await get(u, '/api/settings')).body.plan).toBe('solo');
  });

  it('GET /api/psp/credits redirects for a listed price; paying adds that pack', async () => {
    const u = await signUpAndIn(app);
    const res = await get(u, '/api/psp/credits?price=price_dev_credits_500');
    expect(res.status).toBe(302);
    await pay(String(res.headers.location));
    expect((await get(u, '/api/credits')).body.credits).toBe(30);
  });

  it('POST /api/psp/storage-upgrade answers a checkout url; paying adds the add-on, not a plan', async () => {
    const u = await signUpAndIn(app);
    const res = await call(app, { method: 'POST', url: '/api/psp/storage-upgrade', headers: u.headers });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['url']);
    await pay(res.body.url);
    const b = (await get(u, '/api/billing')).body;
    expect(b.currentPlan).toBe('free');
    expect(b.subscriptions).toEqual([expect.objectContaining({ kind: 'storage', plan: null, status: 'active' })]);
  });

  it('when the completion link is tampered with, then 400 DEV_CHECKOUT_INVALID and nothing is granted', async () => {
    const u = await signUpAndIn(app);
    const { url } = (await billingPost(u, { action: 'buy-credits', pack: 500 })).body;
    const res = await call(app, { method: 'GET', url: `${pathOf(url)}x` });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('DEV_CHECKOUT_INVALID');
    expect((await get(u, '/api/credits')).body.credits).toBe(0);
  });

  it('admins are sent straight to onboarding, without a checkout', async () => {
    const admin = await signUpVerifiedAndIn(app, owner, { email: ADMIN });
    const res = await get(admin, '/api/psp/checkout?plan=network');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${config.APP_URL}/onboarding`);
    expect((await billingPost(admin, { action: 'create-checkout', plan: 'scale' })).body).toEqual({ url: `${config.APP_URL}/onboarding` });
    expect((await owner.query('select count(*)::int n from payment_customers where user_id = $1', [admin.id])).rows[0].n).toBe(0);
  });
});

describe('usage', () => {
  it('get-usage and GET /api/billing read the meter', async () => {
    const u = await signUpAndIn(app);
    await pay((await billingPost(u, { action: 'create-checkout', plan: 'starter' })).body.url);
    await container.resolve(USAGE_METER).reserve(u.id as UserId, 42);
    expect((await billingPost(u, { action: 'get-usage' })).body).toEqual({ dailyUnits: 600, used: 42, remaining: 558 });
    expect((await get(u, '/api/billing')).body.usage).toEqual({ dailyUnits: 600, used: 42, remaining: 558 });
  });
});

describe('BYOK', () => {
  it('stores the key sealed, never returns or logs it, lets the AI layer read it, and deletes it on disable', async () => {
    const u = await signUpAndIn(app);
    const apiKey = 'sk-proj-THIS-IS-A-SECRET-PROVIDER-KEY-0123456789';
    const res = await billingPost(u, { action: 'enable-byok', provider: 'openai', apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    expect((await get(u, '/api/billing')).body.byokEnabled).toBe(true);
    const rows = await owner.query('select key_id, ciphertext from byok_keys where user_id = $1', [u.id]);
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0].ciphertext.includes(Buffer.from('SECRET-PROVIDER'))).toBe(false);
    expect(logs.some((l) => l.includes('SECRET-PROVIDER'))).toBe(false);
    expect(await container.resolve(ReadByokKeys).keysFor(u.id as UserId)).toEqual({ openai: apiKey });

    // replacing keeps one row per provider; a second provider adds one
    await billingPost(u, { action: 'enable-byok', provider: 'openai', apiKey: `${apiKey}-v2` });
    await billingPost(u, { action: 'enable-byok', provider: 'anthropic', apiKey: 'sk-ant-another-secret-key' });
    expect(await container.resolve(ReadByokKeys).keysFor(u.id as UserId)).toEqual({ openai: `${apiKey}-v2`, anthropic: 'sk-ant-another-secret-key' });

    expect((await billingPost(u, { action: 'disable-byok', provider: 'anthropic' })).body).toEqual({ success: true, message: expect.any(String) });
    expect(Object.keys(await container.resolve(ReadByokKeys).keysFor(u.id as UserId))).toEqual(['openai']);
    expect((await billingPost(u, { action: 'disable-byok' })).body.success).toBe(true);
    expect((await get(u, '/api/billing')).body.byokEnabled).toBe(false);
    expect(await container.resolve(ReadByokKeys).keysFor(u.id as UserId)).toEqual({});
  });

  it('when the request is invalid, then the key appears neither in the answer nor in the log', async () => {
    const u = await signUpAndIn(app);
    const apiKey = 'sk-LEAKCHECK with spaces';
    const res = await billingPost(u, { action: 'enable-byok', provider: 'openai', apiKey });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain('LEAKCHECK');
    expect(logs.some((l) => l.includes('LEAKCHECK'))).toBe(false);
  });

  it("when a ciphertext is copied onto another user's row, then it does not open for them", async () => {
    const a = await signUpAndIn(app);
    const b = await signUpAndIn(app);
    await billingPost(a, { action: 'enable-byok', provider: 'google', apiKey: 'google-secret-key-of-a' });
    await owner.query(`insert into byok_keys (user_id, provider, key_id, ciphertext) select $2, provider, key_id, ciphertext from byok_keys where user_id = $1`, [a.id, b.id]);
    expect(await container.resolve(ReadByokKeys).keysFor(b.id as UserId)).toEqual({});
  });
});

describe('subscriptions by id', () => {
  it("answers the caller's own subscription and 404 for another user's or an unknown id", async () => {
    const a = await signUpAndIn(app);
    const b = await signUpAndIn(app);
    await pay((await billingPost(a, { action: 'create-checkout', plan: 'scale' })).body.url);
    const id = (await get(a, '/api/billing')).body.subscriptions[0].id;
    const own = await get(a, `/api/billing/subscriptions/${id}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id, kind: 'subscription', plan: 'scale', catalog: 'billing', status: 'active', currentPeriodEnd: expect.any(String) });
    const other = await get(b, `/api/billing/subscriptions/${id}`);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('NOT_FOUND');
    expect((await get(a, '/api/billing/subscriptions/sub_missing')).status).toBe(404);
  });
});

describe('legacy and credits', () => {
  it('POST /api/checkout answers 410 DEPRECATED with its replacement, whatever the body', async () => {
    for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'text/plain' }]) {
      const res = await call(app, { method: 'POST', url: '/api/checkout', headers, payload: headers['content-type'] === 'text/plain' ? 'plan=solo' : '{"plan":"solo"}' });
      expect(res.status).toBe(410);
      expect(res.body).toEqual({ error: expect.any(String), code: 'DEPRECATED', use: '/api/psp/checkout' });
    }
  });

  it('GET /api/credits answers the balance and the packs', async () => {
    const u = await signUpAndIn(app);
    const res = await get(u, '/api/credits');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ credits: 0, packs: [{ pack: '50', credits: 5, price: 5 }, { pack: '200', credits: 15, price: 15 }, { pack: '500', credits: 30, price: 30 }] });
  });
});
