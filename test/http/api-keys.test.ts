import { describe, expect, it } from 'vitest';
import { bearer, call, signUpAndIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

const { app, infra } = await startTestApp();
const owner = infra.pools.owner;

describe('/api/keys', () => {
  it('creates a key shown once, stored only as a bcrypt hash, listed without its value', async () => {
    const u = await signUpAndIn(app);
    const created = await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'deploy' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(String), name: 'deploy', key: expect.stringMatching(/^sk_[a-z0-9]{16}_[A-Za-z0-9_-]{43}$/), createdAt: expect.any(String) });
    const row = await owner.query('select key_hash from api_keys where id = $1', [created.body.id]);
    expect(row.rows[0].key_hash).toMatch(/^\$2[aby]\$/);
    expect(JSON.stringify(row.rows)).not.toContain(created.body.key);
    const list = await call(app, { method: 'GET', url: '/api/keys', headers: { cookie: u.cookie } });
    const noLimits = { dailyUnits: null, models: null, expiresAt: null, rateLimit: null };
    expect(created.body).toMatchObject(noLimits);
    expect(list.body.keys).toEqual([{ id: created.body.id, name: 'deploy', keyPreview: expect.stringMatching(/^sk_.+…/), createdAt: created.body.createdAt, lastUsed: null, ...noLimits, unitsUsed: 0 }]);
    expect(list.body.keys[0]).not.toHaveProperty('key');
    const one = await call(app, { method: 'GET', url: `/api/keys/${created.body.id}`, headers: { cookie: u.cookie } });
    expect(one.body).toEqual(list.body.keys[0]);
  });

  it('a key authenticates wherever a session does, and lastUsed is written', async () => {
    const u = await signUpAndIn(app);
    const { key, id } = (await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'ci' } })).body;
    for (let i = 0; i < 3; i++) expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(key) })).body.id).toBe(u.id);
    // lastUsed is written off the request's path
    await expect.poll(async () => (await call(app, { method: 'GET', url: `/api/keys/${id}`, headers: bearer(key) })).body.lastUsed).not.toBeNull();
  });

  it("another user's key answers 404 to read and delete, and keeps working", async () => {
    const a = await signUpAndIn(app);
    const b = await signUpAndIn(app);
    const { key, id } = (await call(app, { method: 'POST', url: '/api/keys', headers: a.headers, payload: { name: 'mine' } })).body;
    expect((await call(app, { method: 'GET', url: `/api/keys/${id}`, headers: { cookie: b.cookie } })).status).toBe(404);
    const del = await call(app, { method: 'DELETE', url: `/api/keys/${id}`, headers: b.headers });
    expect(del.status).toBe(404);
    expect(del.body.code).toBe('NOT_FOUND');
    expect((await call(app, { method: 'GET', url: '/api/keys', headers: { cookie: b.cookie } })).body.keys).toEqual([]);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(key) })).status).toBe(200);
  });

  it('when a key is deleted, then it and the JWTs issued from it stop working at once', async () => {
    const u = await signUpAndIn(app);
    const { key, id } = (await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'temp' } })).body;
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(key) })).status).toBe(200);
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: bearer(key) })).body.token;
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(jwt) })).status).toBe(200);
    expect((await call(app, { method: 'DELETE', url: `/api/keys/${id}`, headers: u.headers })).body).toEqual({ success: true });
    const viaKey = await call(app, { method: 'GET', url: '/api/settings', headers: bearer(key) });
    expect(viaKey.status).toBe(401);
    expect(viaKey.body.code).toBe('TOKEN_INVALID');
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(jwt) })).status).toBe(401);
    expect((await call(app, { method: 'DELETE', url: `/api/keys/${id}`, headers: u.headers })).status).toBe(404);
  });

  it('when a key is altered, unknown or malformed, then 401 TOKEN_INVALID', async () => {
    const u = await signUpAndIn(app);
    const { key } = (await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'x' } })).body as { key: string };
    const altered = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    for (const bad of [altered, 'sk_short', `sk_${'a'.repeat(16)}_${'b'.repeat(43)}`]) {
      const res = await call(app, { method: 'GET', url: '/api/settings', headers: bearer(bad) });
      expect(res.status, bad).toBe(401);
      expect(res.body.code).toBe('TOKEN_INVALID');
    }
  });

  it.each([[{}], [{ name: '' }], [{ name: 'n'.repeat(65) }], [{ name: 12 }]])('when the body is %j, then 400 and no key', async (payload) => {
    const u = await signUpAndIn(app);
    const res = await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload });
    expect(res.status).toBe(400);
    expect((await call(app, { method: 'GET', url: '/api/keys', headers: { cookie: u.cookie } })).body.keys).toEqual([]);
  });

  it('when the id is not a uuid, then 400; without credentials, 401', async () => {
    const u = await signUpAndIn(app);
    expect((await call(app, { method: 'GET', url: '/api/keys/not-a-uuid', headers: { cookie: u.cookie } })).status).toBe(400);
    expect((await call(app, { method: 'GET', url: '/api/keys' })).status).toBe(401);
    expect((await call(app, { method: 'POST', url: '/api/keys', payload: { name: 'x' } })).status).toBe(401);
  });
});
