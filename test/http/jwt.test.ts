import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bearer, call, signUpAndIn, signUpVerifiedAndIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

const admin = 'boss@example.test';
const { app, config, infra } = await startTestApp({
  env: { ADMIN_EMAILS: ` ${admin.toUpperCase()} ` },
  routes: [
    async (a) => {
      // its answer declared, as every route's is: the test app holds answers to the document
      a.get('/api/test/admin-only', { schema: { response: { 200: z.object({ ok: z.boolean() }) } }, config: { auth: 'required', admin: true } }, async () => ({ ok: true }));
    },
  ],
});
const key = new TextEncoder().encode(config.JWT_SECRET);
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('POST /api/auth/token and the bearer middleware', () => {
  it('issues a 7-day HS256 JWT with userId, email, role and sid', async () => {
    const u = await signUpAndIn(app);
    const res = await call(app, { method: 'POST', url: '/api/auth/token', headers: u.headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 604800 });
    const [header, payload] = res.body.token.split('.').slice(0, 2).map((p: string) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header.alg).toBe('HS256');
    expect(payload).toMatchObject({ userId: u.id, email: u.email, role: 'user', sid: expect.stringMatching(/^s:/) });
    expect(payload.exp - payload.iat).toBe(604800);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(res.body.token) })).body.id).toBe(u.id);
  });

  it('without a header or without the Bearer prefix: 401 AUTH_REQUIRED', async () => {
    for (const headers of [{}, { authorization: 'Token abc' }, { authorization: 'Bearer' }]) {
      const res = await call(app, { method: 'GET', url: '/api/settings', headers });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('AUTH_REQUIRED');
    }
  });

  it('alg none, another algorithm, a bad signature, an expired token or a made-up sid: 401 TOKEN_INVALID', async () => {
    const u = await signUpAndIn(app);
    const good = (await call(app, { method: 'POST', url: '/api/auth/token', headers: u.headers })).body.token as string;
    const claims = JSON.parse(Buffer.from(good.split('.')[1]!, 'base64url').toString());
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    const hs512 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(key);
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('another-secret-another-secret-another'));
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    const noSid = await new SignJWT({ ...claims, sid: 's:00000000-0000-4000-8000-000000000000' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key);
    const tampered = good.slice(0, -2) + (good.endsWith('AA') ? 'BB' : 'AA');
    for (const token of [none, hs512, forged, expired, noSid, tampered, 'not.a.jwt']) {
      const res = await call(app, { method: 'GET', url: '/api/settings', headers: bearer(token) });
      expect(res.status, token.slice(0, 20)).toBe(401);
      expect(res.body.code).toBe('TOKEN_INVALID');
    }
  });

  it("a JWT whose sid is another user's session is refused", async () => {
    const a = await signUpAndIn(app);
    const b = await signUpAndIn(app);
    const tokenA = (await call(app, { method: 'POST', url: '/api/auth/token', headers: a.headers })).body.token as string;
    const tokenB = (await call(app, { method: 'POST', url: '/api/auth/token', headers: b.headers })).body.token as string;
    const sidB = JSON.parse(Buffer.from(tokenB.split('.')[1]!, 'base64url').toString()).sid;
    const mixed = await new SignJWT({ userId: a.id, email: a.email, role: 'user', sid: sidB }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(tokenA) })).status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(mixed) })).body.code).toBe('TOKEN_INVALID');
  });

  it('admin is decided from ADMIN_EMAILS at each request: others get 403 ADMIN_REQUIRED', async () => {
    const user = await signUpAndIn(app);
    const boss = await signUpVerifiedAndIn(app, infra.pools.owner, { email: admin });
    const denied = await call(app, { method: 'GET', url: '/api/test/admin-only', headers: { cookie: user.cookie } });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('ADMIN_REQUIRED');
    expect((await call(app, { method: 'GET', url: '/api/test/admin-only', headers: { cookie: boss.cookie } })).status).toBe(200);
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: boss.headers })).body.token;
    const role = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()).role;
    expect(role).toBe('admin');
    // a forged role claim grants nothing: the role comes from the live e-mail, not the token
    const forgedRole = await new SignJWT({ userId: user.id, email: user.email, role: 'admin', sid: JSON.parse(Buffer.from((await call(app, { method: 'POST', url: '/api/auth/token', headers: user.headers })).body.token.split('.')[1], 'base64url').toString()).sid })
      .setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key);
    expect((await call(app, { method: 'GET', url: '/api/test/admin-only', headers: bearer(forgedRole) })).status).toBe(403);
  });
});

describe('when authentication itself fails unexpectedly', () => {
  it('answers 500 AUTH_ERROR, and a database outage during it answers 503', async () => {
    const { CREDENTIAL_LOOKUP } = await import('../../src/application/ports/credential-lookup.port.js');
    const { DatabaseUnavailableError } = await import('../../src/adapters/outbound/persistence/pg-errors.js');
    let failure: Error = new Error('lookup exploded');
    const broken = {
      sessionByTokenHash: async () => { throw failure; },
      sessionById: async () => { throw failure; },
      apiKeyByLookupId: async () => { throw failure; },
      apiKeyById: async () => { throw failure; },
      touchApiKey: async () => {},
    };
    const { app: failing, logs } = await startTestApp({ override: (c) => c.register(CREDENTIAL_LOOKUP, { useValue: broken }) });
    const res = await call(failing, { method: 'GET', url: '/api/settings', headers: { cookie: 'session=anything' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Authentication error', code: 'AUTH_ERROR' });
    expect(logs.some((l) => l.includes('lookup exploded'))).toBe(true);
    failure = new DatabaseUnavailableError();
    expect((await call(failing, { method: 'GET', url: '/api/settings', headers: { cookie: 'session=anything' } })).status).toBe(503);
  });
});
