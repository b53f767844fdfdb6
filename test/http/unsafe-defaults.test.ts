import { describe, expect, it } from 'vitest';
import { call, lastMailTo, signUpAndIn, uniqueEmail, type SignedIn } from '../support/http-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The development payment processor and mail printed to the log run only on a plainly local
 * service or behind ALLOW_UNSAFE_DEFAULTS=true (CONTRACT.md section 2), through the whole wiring.
 */
const local = await startTestApp({ env: { NODE_ENV: 'development', APP_URL: 'http://localhost:3000' } });
const remote = await startTestApp({ env: { NODE_ENV: 'development', APP_URL: 'https://agents.example.com' } });
const production = await startTestApp({ env: { NODE_ENV: 'production', APP_URL: 'http://127.0.0.1:3000' } });
const optedIn = await startTestApp({ env: { NODE_ENV: 'production', APP_URL: 'https://staging.example.com', ALLOW_UNSAFE_DEFAULTS: 'true' } });

const checkout = (t: TestApp, u: SignedIn) => call(t.app, { method: 'POST', url: '/api/billing', headers: u.headers, payload: { action: 'create-checkout', plan: 'pro' } });
const sessionCookie = (t: TestApp) => (t.config.secureCookies ? '__Host-session' : 'session');

async function register(t: TestApp): Promise<{ email: string; logged: boolean; stored: boolean }> {
  const email = uniqueEmail();
  const res = await call(t.app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw' } });
  expect(res.status).toBe(201);
  const stored = (await lastMailTo(t.infra.pools.owner, email)) !== null;
  const logged = t.logs.some((l) => l.includes('"devMail"') && l.includes(email));
  return { email, logged, stored };
}

/** A signed-in user on any of the apps (cookie names differ under https). */
async function user(t: TestApp): Promise<SignedIn> {
  if (!t.config.secureCookies) return signUpAndIn(t.app);
  const email = uniqueEmail();
  await call(t.app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw' } });
  const res = await call(t.app, { method: 'POST', url: '/api/auth/callback/credentials', payload: { email, password: 'long enough pw' } });
  const session = res.cookies.find((c) => c.name === sessionCookie(t))!;
  const csrf = res.cookies.find((c) => c.name === '__Host-csrf')!;
  const cookie = `${session.name}=${session.value}; __Host-csrf=${csrf.value}`;
  return { id: res.body.user.id, email, password: 'long enough pw', cookie, csrf: csrf.value, headers: { cookie, 'x-csrf-token': csrf.value } };
}

describe('mail without SMTP_URL', () => {
  it('when the service is local, then the mail is stored in the outbox and printed whole to the log', async () => {
    expect(await register(local)).toMatchObject({ stored: true, logged: true });
  });

  it('when the service is local, then the verification link is also a log line of its own: its message is the link alone', async () => {
    const { email } = await register(local);
    const lines = local.logs.filter((l) => l.includes('"devMail"') && l.includes(email)).map((l) => JSON.parse(l));
    const linkLines = lines.filter((l) => l.devMail.link);
    expect(linkLines).toHaveLength(1);
    expect(linkLines[0].msg).toMatch(/^http:\/\/localhost:3000\/verify-email\?token=[^\s]+$/);
    expect(linkLines[0].msg).toBe(linkLines[0].devMail.link);
    // the same link the whole mail carries
    expect(lines.find((l) => l.devMail.text).devMail.text).toContain(linkLines[0].msg);
  });

  it.each([
    ['APP_URL is not loopback', remote],
    ['NODE_ENV is production', production],
  ])('when %s, then the mail is stored in the outbox and never printed', async (_why, t) => {
    const r = await register(t);
    expect(r).toMatchObject({ stored: true, logged: false });
    expect(t.logs.some((l) => l.includes('"devMail"') || l.includes('token='))).toBe(false);
  });

  it('when not local but ALLOW_UNSAFE_DEFAULTS=true, then the mail is printed too', async () => {
    expect(await register(optedIn)).toMatchObject({ stored: true, logged: true });
  });
});

describe('payments without STRIPE_SECRET_KEY', () => {
  it('when the service is local, then the development processor sells (its completion page is on this service)', async () => {
    const res = await checkout(local, await signUpAndIn(local.app));
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^http:\/\/localhost:3000\/api\/psp\/dev\/complete\?session=/);
  });

  it.each([
    ['APP_URL is not loopback', remote],
    ['NODE_ENV is production', production],
  ])('when %s, then nothing is sold (503 PAYMENTS_NOT_CONFIGURED) and the completion page does not exist', async (_why, t) => {
    const res = await checkout(t, await user(t));
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('PAYMENTS_NOT_CONFIGURED');
    expect((await call(t.app, { method: 'GET', url: '/api/psp/dev/complete?session=x' })).status).toBe(404);
  });

  it('when not local but ALLOW_UNSAFE_DEFAULTS=true, then the development processor sells', async () => {
    const res = await checkout(optedIn, await user(optedIn));
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^https:\/\/staging\.example\.com\/api\/psp\/dev\/complete\?session=/);
  });
});
