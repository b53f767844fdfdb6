import { describe, expect, it } from 'vitest';
import { CLOCK } from '../../src/application/ports/clock.port.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { call, lastMailTo, signIn, signUpAndIn, uniqueEmail } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

const { app, infra } = await startTestApp();
const clockedAt = Date.parse('2031-02-03T04:05:06.000Z');
const clocked = await startTestApp({ override: (c) => c.register(CLOCK, { useValue: new ManualClock(clockedAt) }) });
const owner = infra.pools.owner;

describe('GET /api/settings', () => {
  it('answers the caller\'s own profile with the spec fields plus referralCode and emailVerified', async () => {
    const u = await signUpAndIn(app, { name: 'Grace' });
    const res = await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: u.id, email: u.email, name: 'Grace', plan: 'free', credits: 0, twoFactorEnabled: false,
      referralCode: expect.stringMatching(/^[A-Z0-9]{10}$/), emailVerified: false, notifications: {},
    });
  });

  it('without credentials: 401 AUTH_REQUIRED', async () => {
    const res = await call(app, { method: 'GET', url: '/api/settings' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH_REQUIRED');
  });

  it('when the account was deleted under a live session, then 404', async () => {
    const u = await signUpAndIn(app);
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: u.headers })).body.token;
    await owner.query('delete from users where id = $1', [u.id]);
    // the session row went with the user: the cookie no longer authenticates
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { authorization: `Bearer ${jwt}` } })).status).toBe(401);
  });
});

describe('POST /api/settings', () => {
  it('changes the name and the e-mail; a new e-mail is unverified, gets its own link, and user.updated is written', async () => {
    const u = await signUpAndIn(app);
    const email = uniqueEmail('moved');
    const res = await call(app, { method: 'POST', url: '/api/settings', headers: u.headers, payload: { name: 'New Name', email } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'New Name', email, emailVerified: false });
    expect(await lastMailTo(owner, email)).not.toBeNull();
    const events = await owner.query(`select payload from outbox where topic = 'user.updated' and user_id = $1`, [u.id]);
    expect(events.rows[0].payload.changed.sort()).toEqual(['email', 'name']);
    await signIn(app, email, u.password);
  });

  it('when the e-mail belongs to another account, then 409 and nothing changes', async () => {
    const a = await signUpAndIn(app, { name: 'A' });
    const b = await signUpAndIn(app);
    const res = await call(app, { method: 'POST', url: '/api/settings', headers: a.headers, payload: { name: 'Changed', email: b.email.toUpperCase() } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EMAIL_IN_USE');
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: a.cookie } })).body).toMatchObject({ name: 'A', email: a.email });
  });

  it.each([[{ email: 'nope' }], [{ name: '' }], [{ name: 'x'.repeat(101) }], [{ plan: 'network' }], [{ credits: 1000 }]])(
    'when the body is %j, then 400 and nothing changes',
    async (payload) => {
      const u = await signUpAndIn(app, { name: 'Same' });
      const res = await call(app, { method: 'POST', url: '/api/settings', headers: u.headers, payload });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).body).toMatchObject({ name: 'Same', credits: 0, plan: 'free' });
    },
  );
});

describe('PATCH /api/settings', () => {
  it('merges notification preferences and changes the name', async () => {
    const u = await signUpAndIn(app);
    await call(app, { method: 'PATCH', url: '/api/settings', headers: u.headers, payload: { notifications: { email: true, sms: false } } });
    const res = await call(app, { method: 'PATCH', url: '/api/settings', headers: u.headers, payload: { name: 'Patched', notifications: { sms: true } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Patched', notifications: { email: true, sms: true } });
  });

  it('when nothing changes, then no user.updated event is written', async () => {
    const u = await signUpAndIn(app, { name: 'Still' });
    await call(app, { method: 'PATCH', url: '/api/settings', headers: u.headers, payload: { name: 'Still' } });
    expect((await owner.query(`select count(*)::int n from outbox where topic = 'user.updated' and user_id = $1`, [u.id])).rows[0].n).toBe(0);
  });

  it('when notifications are not booleans or an e-mail is sent, then 400', async () => {
    const u = await signUpAndIn(app);
    expect((await call(app, { method: 'PATCH', url: '/api/settings', headers: u.headers, payload: { notifications: { email: 'yes' } } })).status).toBe(400);
    expect((await call(app, { method: 'PATCH', url: '/api/settings', headers: u.headers, payload: { email: uniqueEmail() } })).status).toBe(400);
  });
});

describe('POST /api/settings/password', () => {
  it('when the current password is right, then it changes and every other session ends, this one stays', async () => {
    const first = await signUpAndIn(app);
    const second = await signIn(app, first.email, first.password);
    const res = await call(app, { method: 'POST', url: '/api/settings/password', headers: second.headers, payload: { currentPassword: first.password, newPassword: 'the new password' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: first.cookie } })).status).toBe(401);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: second.cookie } })).status).toBe(200);
    await signIn(app, first.email, 'the new password');
  });

  it('when the current password is wrong, then 401 WRONG_PASSWORD and nothing changes', async () => {
    const u = await signUpAndIn(app);
    const res = await call(app, { method: 'POST', url: '/api/settings/password', headers: u.headers, payload: { currentPassword: 'not it at all', newPassword: 'the new password' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('WRONG_PASSWORD');
    await signIn(app, u.email, u.password);
  });

  it('when the new password is under 8 characters, then 400', async () => {
    const u = await signUpAndIn(app);
    const res = await call(app, { method: 'POST', url: '/api/settings/password', headers: u.headers, payload: { currentPassword: u.password, newPassword: 'short' } });
    expect(res.status).toBe(400);
    await signIn(app, u.email, u.password);
  });
});

describe('DELETE /api/settings', () => {
  it('deletes the account and its data, writes user.deleted, and every credential stops working', async () => {
    const u = await signUpAndIn(app);
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'k' } })).body.key;
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: u.headers })).body.token;
    const res = await call(app, { method: 'DELETE', url: '/api/settings', headers: u.headers });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    for (const headers of [{ cookie: u.cookie }, { authorization: `Bearer ${key}` }, { authorization: `Bearer ${jwt}` }]) {
      expect((await call(app, { method: 'GET', url: '/api/settings', headers })).status).toBe(401);
    }
    const left = await owner.query(`select (select count(*) from users where id = $1)::int u, (select count(*) from api_keys where user_id = $1)::int k, (select count(*) from sessions where user_id = $1)::int s`, [u.id]);
    expect(left.rows[0]).toEqual({ u: 0, k: 0, s: 0 });
    expect((await owner.query(`select count(*)::int n from outbox where topic = 'user.deleted' and user_id = $1`, [u.id])).rows[0].n).toBe(1);
    const again = await call(app, { method: 'POST', url: '/api/auth/callback/credentials', payload: { email: u.email, password: u.password } });
    expect(again.status).toBe(401);
  });

  it('without the CSRF token, nothing is deleted; another user is untouched', async () => {
    const a = await signUpAndIn(app);
    const b = await signUpAndIn(app);
    expect((await call(app, { method: 'DELETE', url: '/api/settings', headers: { cookie: a.cookie } })).status).toBe(403);
    await call(app, { method: 'DELETE', url: '/api/settings', headers: b.headers });
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: a.cookie } })).status).toBe(200);
  });
});

describe('DELETE /api/settings and the clock', () => {
  it('when the account is deleted, then user.deleted carries the injected clock\'s time, not the machine\'s', async () => {
    const u = await signUpAndIn(clocked.app);
    expect((await call(clocked.app, { method: 'DELETE', url: '/api/settings', headers: u.headers })).status).toBe(200);
    const { rows } = await clocked.infra.pools.owner.query(`select payload from outbox where topic = 'user.deleted' and user_id = $1`, [u.id]);
    expect(rows[0].payload.deletedAt).toBe('2031-02-03T04:05:06.000Z');
  });
});
