import { describe, expect, it } from 'vitest';
import { bearer, call, lastMailTo, signIn, signUpAndIn, tokenFrom, uniqueEmail } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

const { app, infra, logs } = await startTestApp();
const owner = infra.pools.owner;

describe('credentials sign-in and sessions', () => {
  it('when the credentials are right, then the session cookie is HttpOnly and SameSite=Lax and the session works', async () => {
    const email = uniqueEmail();
    await call(app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw', name: 'Ada' } });
    const res = await call(app, { method: 'POST', url: '/api/auth/callback/credentials', payload: { email: email.toUpperCase(), password: 'long enough pw' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: { id: expect.any(String), email, name: 'Ada' } });
    const cookie = res.cookies.find((c) => c.name === 'session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.path).toBe('/');
    const session = await call(app, { method: 'GET', url: '/api/auth/session', headers: { cookie: `session=${cookie.value}` } });
    expect(session.body.user).toMatchObject({ id: res.body.user.id, email, role: 'user' });
    const stored = await owner.query(`select token_hash from sessions where user_id = $1`, [res.body.user.id]);
    expect(stored.rows[0].token_hash.toString('hex')).not.toContain(Buffer.from(cookie.value).toString('hex'));
  });

  it('when the e-mail is unknown or the password wrong, then the same 401 body', async () => {
    const u = await signUpAndIn(app);
    const wrong = await call(app, { method: 'POST', url: '/api/auth/callback/credentials', payload: { email: u.email, password: 'wrong password' } });
    const unknown = await call(app, { method: 'POST', url: '/api/auth/callback/credentials', payload: { email: uniqueEmail(), password: 'wrong password' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Invalid credentials', code: 'INVALID_CREDENTIALS' });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.cookies).toEqual([]);
  });

  it('without a session, /api/auth/session answers {user: null}', async () => {
    expect((await call(app, { method: 'GET', url: '/api/auth/session' })).body).toEqual({ user: null });
    expect((await call(app, { method: 'GET', url: '/api/auth/session', headers: { cookie: 'session=forged' } })).body).toEqual({ user: null });
  });

  it('when signing out, then the session and the JWTs issued from it stop working', async () => {
    const u = await signUpAndIn(app);
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: u.headers })).body.token;
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(jwt) })).status).toBe(200);
    const out = await call(app, { method: 'POST', url: '/api/auth/signout', headers: u.headers });
    expect(out.status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).status).toBe(401);
    const viaJwt = await call(app, { method: 'GET', url: '/api/settings', headers: bearer(jwt) });
    expect(viaJwt.status).toBe(401);
    expect(viaJwt.body.code).toBe('TOKEN_INVALID');
  });
});

describe('CSRF', () => {
  it('GET /api/auth/csrf gives the token bound to the session, and a csrf cookie', async () => {
    const u = await signUpAndIn(app);
    const res = await call(app, { method: 'GET', url: '/api/auth/csrf', headers: { cookie: u.cookie } });
    expect(res.body.csrfToken).toBe(u.csrf);
    expect(res.cookies.find((c) => c.name === 'csrf')?.value).toBe(u.csrf);
  });

  it('when a cookie-authenticated change lacks the header or sends another session\'s token, then 403 and nothing changes', async () => {
    const u = await signUpAndIn(app, { name: 'Before' });
    const other = await signUpAndIn(app);
    const missing = await call(app, { method: 'PATCH', url: '/api/settings', headers: { cookie: u.cookie }, payload: { name: 'After' } });
    const foreign = await call(app, { method: 'PATCH', url: '/api/settings', headers: { cookie: u.cookie, 'x-csrf-token': other.csrf }, payload: { name: 'After' } });
    expect([missing.status, foreign.status]).toEqual([403, 403]);
    expect(missing.body.code).toBe('CSRF_TOKEN_MISSING');
    expect(foreign.body.code).toBe('CSRF_TOKEN_MISSING');
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).body.name).toBe('Before');
  });

  it('when the session is already known to the process (answered without a lookup), then the same CSRF checks hold', async () => {
    const u = await signUpAndIn(app, { name: 'Before' });
    const other = await signUpAndIn(app);
    // a read first: the session is now in the process's credential cache, and the changes below take the hook's synchronous path
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).status).toBe(200);
    const missing = await call(app, { method: 'PATCH', url: '/api/settings', headers: { cookie: u.cookie }, payload: { name: 'After' } });
    const foreign = await call(app, { method: 'PATCH', url: '/api/settings', headers: { cookie: u.cookie, 'x-csrf-token': other.csrf }, payload: { name: 'After' } });
    expect([missing.status, missing.body.code, foreign.status, foreign.body.code]).toEqual([403, 'CSRF_TOKEN_MISSING', 403, 'CSRF_TOKEN_MISSING']);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).body.name).toBe('Before');
    const right = await call(app, { method: 'PATCH', url: '/api/settings', headers: { cookie: u.cookie, 'x-csrf-token': u.csrf }, payload: { name: 'After' } });
    expect(right).toMatchObject({ status: 200, body: { name: 'After' } });
  });

  it('when the change is bearer-authenticated, then no CSRF token is needed', async () => {
    const u = await signUpAndIn(app);
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'ci' } })).body.key;
    const res = await call(app, { method: 'PATCH', url: '/api/settings', headers: bearer(key), payload: { name: 'Via key' } });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Via key');
  });
});

describe('e-mail verification', () => {
  it('when the link from the mail is followed, then the address is verified, once', async () => {
    const u = await signUpAndIn(app);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).body.emailVerified).toBe(false);
    const token = tokenFrom((await lastMailTo(owner, u.email))!.text);
    const ok = await call(app, { method: 'GET', url: `/api/auth/verify-email?token=${encodeURIComponent(token)}` });
    expect(ok.status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).body.emailVerified).toBe(true);
    const again = await call(app, { method: 'GET', url: `/api/auth/verify-email?token=${encodeURIComponent(token)}` });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('INVALID_OR_EXPIRED_TOKEN');
  });

  it('when the token is missing or unknown, then 400', async () => {
    expect((await call(app, { method: 'GET', url: '/api/auth/verify-email' })).status).toBe(400);
    expect((await call(app, { method: 'GET', url: '/api/auth/verify-email?token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' })).body.code).toBe('INVALID_OR_EXPIRED_TOKEN');
  });
});

describe('forgot and reset password', () => {
  it('when the account exists or not, then the answer is the same', async () => {
    const u = await signUpAndIn(app);
    const known = await call(app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email: u.email } });
    const unknown = await call(app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email: uniqueEmail() } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
  });

  it('when the reset link is used, then the password changes, every session ends, and the link works once', async () => {
    const u = await signUpAndIn(app);
    await call(app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email: u.email } });
    await expect.poll(() => lastMailTo(owner, u.email)).not.toBeNull(); // forgot-password answers before the mail is written
    const token = tokenFrom((await lastMailTo(owner, u.email))!.text);
    const stored = await owner.query(`select encode(token_hash, 'hex') h from password_resets where user_id = $1`, [u.id]);
    expect(stored.rows[0].h).toHaveLength(64); // only a hash is kept
    const reset = await call(app, { method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'brand new pw' } });
    expect(reset.status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).status).toBe(401);
    await signIn(app, u.email, 'brand new pw');
    const twice = await call(app, { method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'another new pw' } });
    expect(twice.status).toBe(400);
    expect(twice.body.code).toBe('INVALID_OR_EXPIRED_TOKEN');
    await signIn(app, u.email, 'brand new pw');
  });

  it('when the reset password is shorter than 6 or the token is missing, then 400', async () => {
    expect((await call(app, { method: 'POST', url: '/api/auth/reset-password', payload: { token: 'a'.repeat(43), password: '12345' } })).status).toBe(400);
    expect((await call(app, { method: 'POST', url: '/api/auth/reset-password', payload: { password: '123456' } })).status).toBe(400);
  });

  it('when the reset token has expired, then 400 and the password is unchanged', async () => {
    const u = await signUpAndIn(app);
    await call(app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email: u.email } });
    await expect.poll(() => lastMailTo(owner, u.email)).not.toBeNull(); // forgot-password answers before the mail is written
    const token = tokenFrom((await lastMailTo(owner, u.email))!.text);
    await owner.query(`update password_resets set expires_at = now() - interval '1 second' where user_id = $1`, [u.id]);
    expect((await call(app, { method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'brand new pw' } })).status).toBe(400);
    await signIn(app, u.email, u.password);
  });
});

describe('secrets never reach the log', () => {
  it('no password, session token, key or JWT appears in any log line, except the dev mail channel', async () => {
    const u = await signUpAndIn(app, { password: 'a very secret password 42' });
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'k' } })).body.key as string;
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: bearer(key) })).body.token as string;
    await call(app, { method: 'GET', url: '/api/settings', headers: bearer(jwt) });
    await call(app, { method: 'GET', url: '/api/auth/verify-email?token=bogus-token-value-123456' });
    const sessionToken = /session=([^;]+)/.exec(u.cookie)![1]!;
    const ordinary = logs.filter((l) => !l.includes('"devMail"'));
    for (const secret of ['a very secret password 42', sessionToken, key, jwt, 'bogus-token-value-123456']) {
      expect(ordinary.find((l) => l.includes(secret))).toBeUndefined();
    }
  });
});

describe('under https', () => {
  it('the session and csrf cookies are Secure and carry the __Host- prefix', async () => {
    const secure = await startTestApp({ env: { APP_URL: 'https://agents.example.com' } });
    const email = uniqueEmail();
    await call(secure.app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw' } });
    const res = await call(secure.app, { method: 'POST', url: '/api/auth/callback/credentials', payload: { email, password: 'long enough pw' } });
    const session = res.cookies.find((c) => c.name === '__Host-session')!;
    expect(session).toMatchObject({ secure: true, httpOnly: true, path: '/', sameSite: 'Lax' });
    expect(res.cookies.find((c) => c.name === '__Host-csrf')).toMatchObject({ secure: true, path: '/' });
    const me = await call(secure.app, { method: 'GET', url: '/api/auth/session', headers: { cookie: `__Host-session=${session.value}` } });
    expect(me.body.user.email).toBe(email);
  });
});

describe('request ids in the log', () => {
  it('every log line of a request carries the id its response was given (per-request lines at debug)', async () => {
    const debug = await startTestApp({ env: { LOG_LEVEL: 'debug' } });
    const res = await call(debug.app, { method: 'POST', url: '/api/auth/callback/credentials', headers: { 'x-request-id': 'trace-login-42' }, payload: { email: uniqueEmail(), password: 'wrong password' } });
    expect(res.headers['x-request-id']).toBe('trace-login-42');
    const lines = debug.logs.filter((l) => l.includes('trace-login-42')).map((l) => JSON.parse(l));
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    for (const line of lines) expect(line.requestId).toBe('trace-login-42');
    expect(lines.some((l) => l.code === 'INVALID_CREDENTIALS')).toBe(true);
  });

  it('at the default info level, a request writes no "incoming request" or "request completed" line', async () => {
    await call(app, { method: 'GET', url: '/api/auth/session', headers: { 'x-request-id': 'trace-quiet-7' } });
    const lines = logs.filter((l) => l.includes('trace-quiet-7')).map((l) => JSON.parse(l).msg);
    expect(lines).not.toContain('incoming request');
    expect(lines).not.toContain('request completed');
  });
});
