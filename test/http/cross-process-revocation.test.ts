import { describe, expect, it } from 'vitest';
import { bearer, call, signUpAndIn, signUpVerifiedAndIn, uniqueEmail } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

// Two instances of the service on one database, as two processes behind a load balancer.
const ADMIN = uniqueEmail('two-process-admin');
const a = await startTestApp({ env: { ADMIN_EMAILS: ADMIN } });
const b = await startTestApp({ databaseUrl: a.databaseUrl, env: { ADMIN_EMAILS: ADMIN } });

const status = async (res: Promise<{ status: number }>) => (await res).status;
const soon = { timeout: 3_000, interval: 50 };

describe('revocation across processes', () => {
  it('a key deleted through one instance stops working on the other well before the 10-second cache lifetime', async () => {
    const u = await signUpAndIn(a.app);
    const { key, id } = (await call(a.app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'shared' } })).body;
    expect((await call(b.app, { method: 'GET', url: '/api/settings', headers: bearer(key) })).status).toBe(200); // now cached in b
    const started = Date.now();
    await call(a.app, { method: 'DELETE', url: `/api/keys/${id}`, headers: u.headers });
    await expect.poll(() => status(call(b.app, { method: 'GET', url: '/api/settings', headers: bearer(key) })), soon).toBe(401);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('a session signed out on one instance ends on the other, JWTs from it too', async () => {
    const u = await signUpAndIn(a.app);
    const jwt = (await call(a.app, { method: 'POST', url: '/api/auth/token', headers: u.headers })).body.token;
    expect((await call(b.app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).status).toBe(200);
    expect((await call(b.app, { method: 'GET', url: '/api/settings', headers: bearer(jwt) })).status).toBe(200);
    await call(a.app, { method: 'POST', url: '/api/auth/signout', headers: u.headers });
    await expect.poll(() => status(call(b.app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })), soon).toBe(401);
    expect((await call(b.app, { method: 'GET', url: '/api/settings', headers: bearer(jwt) })).status).toBe(401);
  });

  it('an admin who changes their e-mail on one instance is no admin on the other well before the 10-second cache lifetime', async () => {
    const u = await signUpVerifiedAndIn(a.app, a.infra.pools.owner, { email: ADMIN });
    const adminOnly = () => call(b.app, { method: 'GET', url: '/api/admin/webhooks', headers: { cookie: u.cookie } });
    expect((await adminOnly()).status).toBe(200); // now cached in b, as an admin's
    const started = Date.now();
    await call(a.app, { method: 'POST', url: '/api/settings', headers: u.headers, payload: { email: uniqueEmail('stepped-down') } });
    await expect.poll(() => status(adminOnly()), soon).toBe(403);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
