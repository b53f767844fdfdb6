import { describe, expect, it } from 'vitest';
import { bearer, call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/** The limits an owner sets on a key they hand out (decision 0425), over HTTP. */
const { app, infra } = await startTestApp();
const owner = infra.pools.owner;

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();
const create = (u: SignedIn, payload: object) => call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'handed out', ...payload } });
const patch = (u: SignedIn, id: string, payload: object) => call(app, { method: 'PATCH', url: `/api/keys/${id}`, headers: u.headers, payload });
const get = (u: SignedIn, id: string) => call(app, { method: 'GET', url: `/api/keys/${id}`, headers: { cookie: u.cookie } });
const storedLimits = async (id: string) =>
  (await owner.query('select daily_units, models, expires_at, rate_limit from api_keys where id = $1', [id])).rows[0] as Record<string, unknown>;

describe('/api/keys: limits', () => {
  it('when a key is created with limits, then the create answer, the list and the key itself show them, with no units used yet', async () => {
    const u = await signUpAndIn(app);
    const expiresAt = inAnHour();
    const limits = { dailyUnits: 250, models: ['openai/gpt-4o-mini', 'agent/0b7d4bd6-64f3-4a35-9d5c-8f6c3f1e8a11'], expiresAt, rateLimit: 30 };
    const created = await create(u, limits);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...limits, expiresAt: new Date(expiresAt).toISOString() });
    const listed = (await call(app, { method: 'GET', url: '/api/keys', headers: { cookie: u.cookie } })).body.keys;
    expect(listed).toEqual([expect.objectContaining({ id: created.body.id, ...limits, expiresAt: new Date(expiresAt).toISOString(), unitsUsed: 0 })]);
    expect((await get(u, created.body.id)).body).toEqual(listed[0]);
  });

  it('when PATCH names some limits, then only those change; null clears one; the answer is the key as listed', async () => {
    const u = await signUpAndIn(app);
    const { id } = (await create(u, { dailyUnits: 100, models: ['openai/gpt-4o-mini'], rateLimit: 5 })).body;
    const res = await patch(u, id, { dailyUnits: 40, models: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, dailyUnits: 40, models: null, expiresAt: null, rateLimit: 5, unitsUsed: 0 });
    expect(res.body).toEqual((await get(u, id)).body);
    const expiresAt = inAnHour();
    expect((await patch(u, id, { expiresAt, rateLimit: null })).body).toMatchObject({ dailyUnits: 40, expiresAt: new Date(expiresAt).toISOString(), rateLimit: null });
    expect((await patch(u, id, {})).body).toMatchObject({ dailyUnits: 40, rateLimit: null });
  });

  it.each([
    [{ dailyUnits: 0 }, 'dailyUnits'],
    [{ dailyUnits: -5 }, 'dailyUnits'],
    [{ dailyUnits: 1.5 }, 'dailyUnits'],
    [{ dailyUnits: '10' }, 'dailyUnits'],
    [{ dailyUnits: 100_000_001 }, 'dailyUnits'],
    [{ models: [] }, 'models'],
    [{ models: [''] }, 'models'],
    [{ models: 'openai/gpt-4o-mini' }, 'models'],
    [{ models: ['no-such/model'] }, 'models'],
    [{ models: ['agent/not-a-uuid'] }, 'models'],
    [{ expiresAt: 'tomorrow' }, 'expiresAt'],
    [{ expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
    [{ rateLimit: 0 }, 'rateLimit'],
    [{ rateLimit: 100_001 }, 'rateLimit'],
  ])('when a limit is %j, then create and PATCH answer 400 naming it, and nothing changes', async (bad, field) => {
    const u = await signUpAndIn(app);
    const refused = await create(u, bad);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(refused.body)).toContain(field);
    expect((await call(app, { method: 'GET', url: '/api/keys', headers: { cookie: u.cookie } })).body.keys).toEqual([]);
    const { id } = (await create(u, { dailyUnits: 7, rateLimit: 9 })).body;
    const before = await storedLimits(id);
    const res = await patch(u, id, { dailyUnits: 8, ...bad });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body)).toContain(field);
    expect(await storedLimits(id)).toEqual(before);
  });

  it('when PATCH names a field that is not a limit, then 400 and nothing changes', async () => {
    const u = await signUpAndIn(app);
    const { id } = (await create(u, { dailyUnits: 7 })).body;
    const res = await patch(u, id, { dailyUnits: 8, name: 'renamed' });
    expect(res.status).toBe(400);
    expect((await get(u, id)).body).toMatchObject({ name: 'handed out', dailyUnits: 7 });
  });

  it("when another user PATCHes a key, then 404 and it keeps its limits; a malformed id is 400; no credentials 401", async () => {
    const a = await signUpAndIn(app);
    const b = await signUpAndIn(app);
    const { id } = (await create(a, { dailyUnits: 7 })).body;
    const res = await patch(b, id, { dailyUnits: 1000 });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    expect((await patch(b, '00000000-0000-4000-8000-000000000000', { dailyUnits: 1 })).status).toBe(404);
    expect((await patch(b, 'not-a-uuid', { dailyUnits: 1 })).status).toBe(400);
    expect((await call(app, { method: 'PATCH', url: `/api/keys/${id}`, payload: { dailyUnits: 1 } })).status).toBe(401);
    expect((await get(a, id)).body.dailyUnits).toBe(7);
  });
});

describe('/api/keys: an expired key', () => {
  it('when a key expires, then it and the JWTs issued from it are refused 401 TOKEN_INVALID, even while its row is cached', async () => {
    const u = await signUpAndIn(app);
    const { key } = (await create(u, { expiresAt: new Date(Date.now() + 1500).toISOString() })).body;
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(key) })).status).toBe(200);
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: bearer(key) })).body.token;
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(jwt) })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    for (const credential of [key, jwt]) {
      const res = await call(app, { method: 'GET', url: '/api/settings', headers: bearer(credential) });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('TOKEN_INVALID');
    }
    expect((await call(app, { method: 'POST', url: '/api/auth/token', headers: bearer(key) })).status).toBe(401);
  });

  it('when a key was expired in the database before its first use, then the lookup refuses it; PATCHing a later expiry revives it', async () => {
    const u = await signUpAndIn(app);
    const { key, id } = (await create(u, {})).body;
    await owner.query(`update api_keys set expires_at = now() - interval '1 second' where id = $1`, [id]);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(key) })).status).toBe(401);
    // its owner still sees it, and may give it time again
    expect((await get(u, id)).body.expiresAt).not.toBeNull();
    expect((await patch(u, id, { expiresAt: inAnHour() })).status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(key) })).status).toBe(200);
  });
});

describe('/api/keys: a rate limit per key', () => {
  it('when a key makes more requests a minute than its rateLimit, then 429 RATE_LIMITED; its owner and their other keys are not counted with it', async () => {
    const u = await signUpAndIn(app);
    const limited = (await create(u, { rateLimit: 3 })).body;
    const other = (await create(u, {})).body;
    for (let i = 0; i < 3; i++) expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(limited.key) })).status).toBe(200);
    const over = await call(app, { method: 'GET', url: '/api/keys', headers: bearer(limited.key) });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('RATE_LIMITED');
    expect(over.headers['retry-after']).toBeDefined();
    // a JWT issued from the key is the key: refused too (the token route itself is counted first)
    expect((await call(app, { method: 'POST', url: '/api/auth/token', headers: bearer(limited.key) })).status).toBe(429);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(other.key) })).status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).status).toBe(200);
  });

  it('when the limit is raised by PATCH, then the key may go on at once', async () => {
    const u = await signUpAndIn(app);
    const { key, id } = (await create(u, { rateLimit: 1 })).body;
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(key) })).status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(key) })).status).toBe(429);
    expect((await patch(u, id, { rateLimit: 100 })).status).toBe(200);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: bearer(key) })).status).toBe(200);
  });
});
