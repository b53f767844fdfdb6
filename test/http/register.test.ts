import { describe, expect, it } from 'vitest';
import { call, lastMailTo, signUpAndIn, uniqueEmail } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

const { app, infra } = await startTestApp({ env: { REFERRAL_CREDITS: '7' } });
const owner = infra.pools.owner;
const count = async (sql: string, values: unknown[] = []) => (await owner.query(sql, values)).rows[0].n as number;

describe('POST /api/register', () => {
  it('when the body is valid, then the account is created, user.created is written and a verification mail goes out', async () => {
    const email = uniqueEmail();
    const res = await call(app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), email, name: email });
    expect(await count(`select count(*)::int n from outbox where topic = 'user.created' and user_id = $1`, [res.body.id])).toBe(1);
    expect((await lastMailTo(owner, email))?.text).toMatch(/http:\/\/127\.0\.0\.1:3000\/verify-email\?token=/);
    const stored = await owner.query(`select password_hash from users where id = $1`, [res.body.id]);
    expect(stored.rows[0].password_hash).toMatch(/^\$argon2id\$/);
  });

  it('when the e-mail exists in any case, then 409 and nothing new is stored', async () => {
    const email = uniqueEmail();
    await call(app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw' } });
    const before = await count('select count(*)::int n from users');
    const res = await call(app, { method: 'POST', url: '/api/register', payload: { email: email.toUpperCase(), password: 'another pw 123' } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EMAIL_IN_USE');
    expect(await count('select count(*)::int n from users')).toBe(before);
  });

  it.each([
    ['missing email', { password: 'long enough pw' }],
    ['missing password', { email: 'a@example.test' }],
    ['bad email', { email: 'not-an-email', password: 'long enough pw' }],
    ['short password', { email: 'b@example.test', password: 'short' }],
    ['referral code with spaces', { email: 'c@example.test', password: 'long enough pw', referralCode: 'has space' }],
    ['referral code too long', { email: 'd@example.test', password: 'long enough pw', referralCode: 'A'.repeat(21) }],
    ['email as a number', { email: 42, password: 'long enough pw' }],
  ])('when %s, then 400 VALIDATION_ERROR and no user', async (_name, payload) => {
    const before = await count('select count(*)::int n from users');
    const res = await call(app, { method: 'POST', url: '/api/register', payload });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.length).toBeGreaterThan(0);
    expect(await count('select count(*)::int n from users')).toBe(before);
  });

  it('when the referral code is valid in any case, then both users get REFERRAL_CREDITS', async () => {
    const referrer = await signUpAndIn(app);
    const code = (await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: referrer.cookie } })).body.referralCode as string;
    const res = await call(app, { method: 'POST', url: '/api/register', payload: { email: uniqueEmail(), password: 'long enough pw', referralCode: code.toLowerCase() } });
    expect(res.status).toBe(201);
    const credits = await owner.query(`select id, credits from users where id = any($1)`, [[referrer.id, res.body.id]]);
    expect(credits.rows.map((r) => r.credits)).toEqual([7, 7]);
  });

  it('when the referral code matches nobody, then 400 INVALID_REFERRAL_CODE and no user', async () => {
    const email = uniqueEmail();
    const res = await call(app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw', referralCode: 'NOBODY-HAS-THIS' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_REFERRAL_CODE');
    expect(await count('select count(*)::int n from users where email = $1', [email])).toBe(0);
  });

  it('when the JSON is malformed, then 400 and never 500', async () => {
    const res = await call(app, { method: 'POST', url: '/api/register', headers: { 'content-type': 'application/json' }, payload: '{"email": "x@example.test", "password": ' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_JSON');
  });

  it('when the body is over 1 MB, then 413', async () => {
    const res = await call(app, {
      method: 'POST',
      url: '/api/register',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: uniqueEmail(), password: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('when the content type is not JSON, then 415', async () => {
    const res = await call(app, { method: 'POST', url: '/api/register', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
    expect(res.status).toBe(415);
  });

  it('every response carries x-request-id, echoing a well-formed one', async () => {
    const res = await call(app, { method: 'GET', url: '/api/health', headers: { 'x-request-id': 'trace-abc.123' } });
    expect(res.headers['x-request-id']).toBe('trace-abc.123');
    const fresh = await call(app, { method: 'GET', url: '/api/nope', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(fresh.status).toBe(404);
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('per-IP rate limit on the auth routes', () => {
  it('when an IP exceeds RATE_LIMIT_AUTH per minute, then 429 with retry-after', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_AUTH: '3' } });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await call(limited.app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email: uniqueEmail() } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.body.code).toBe('RATE_LIMITED');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    const otherIp = await call(limited.app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email: uniqueEmail() }, remoteAddress: '10.9.9.9' });
    expect(otherIp.status).toBe(200);
  });
});
