import { describe, expect, it } from 'vitest';
import { call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

const { app, infra } = await startTestApp();
const owner = infra.pools.owner;

const get = (user: SignedIn) => call(app, { method: 'GET', url: '/api/heartbeat', headers: { cookie: user.cookie } });
const post = (user: SignedIn, payload: unknown) => call(app, { method: 'POST', url: '/api/heartbeat', headers: user.headers, payload: payload as object });
const del = (user: SignedIn) => call(app, { method: 'DELETE', url: '/api/heartbeat', headers: user.headers });
const row = async (userId: string) => (await owner.query(`select frequency, enabled, last_heartbeat, next_heartbeat from heartbeats where user_id = $1`, [userId])).rows[0] ?? null;
const HOUR = 3_600_000;

describe('/api/heartbeat', () => {
  it('when nothing was saved, then GET answers the defaults: every 3h, disabled, no last or next heartbeat', async () => {
    const user = await signUpAndIn(app);
    const res = await get(user);
    expect(res).toMatchObject({ status: 200, body: { heartbeat: { frequency: '3h', enabled: false, lastHeartbeat: null, nextHeartbeat: null }, message: expect.any(String) } });
    expect(Object.keys(res.body).sort()).toEqual(['heartbeat', 'message']);
    expect(await row(user.id)).toBeNull();
  });

  it('when enabled with a frequency, then POST answers the spec fields, the next heartbeat is one period away, and GET reads it back', async () => {
    const user = await signUpAndIn(app);
    const before = Date.now();
    const res = await post(user, { frequency: '30m', enabled: true });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['enabled', 'frequency', 'lastHeartbeat', 'lastUpdated', 'message', 'nextHeartbeat']);
    expect(res.body).toMatchObject({ frequency: '30m', enabled: true, lastHeartbeat: null, lastUpdated: expect.any(String), message: expect.any(String) });
    const next = Date.parse(res.body.nextHeartbeat);
    expect(next).toBeGreaterThanOrEqual(before + HOUR / 2);
    expect(next).toBeLessThanOrEqual(Date.now() + HOUR / 2);
    expect((await get(user)).body.heartbeat).toEqual({ frequency: '30m', enabled: true, lastHeartbeat: null, nextHeartbeat: res.body.nextHeartbeat });

    // only one field: the other is kept; disabling drops the next heartbeat
    expect((await post(user, { enabled: false })).body).toMatchObject({ frequency: '30m', enabled: false, nextHeartbeat: null });
    expect((await post(user, { frequency: '1d' })).body).toMatchObject({ frequency: '1d', enabled: false, nextHeartbeat: null });
    expect(await row(user.id)).toMatchObject({ frequency: '1d', enabled: false, next_heartbeat: null });
  });

  it('when the frequency is invalid (grammar or bounds) or a field has the wrong type, then 400 and nothing is written', async () => {
    const user = await signUpAndIn(app);
    await post(user, { frequency: '2h', enabled: true });
    const stored = await row(user.id);
    for (const body of [{ frequency: '3' }, { frequency: '0h' }, { frequency: '1w' }, { frequency: '4m', enabled: false }, { frequency: '31d' }, { frequency: 3 }, { enabled: 'yes' }, { frequency: '' }]) {
      const res = await post(user, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect(await row(user.id)).toEqual(stored);
    const fresh = await signUpAndIn(app);
    expect((await post(fresh, { frequency: 'soon', enabled: true })).status).toBe(400);
    expect(await row(fresh.id)).toBeNull();
  });

  it('when DELETE is called, then {success: true, message} and the settings are the defaults again (also when nothing was saved)', async () => {
    const user = await signUpAndIn(app);
    await post(user, { frequency: '1h', enabled: true });
    expect(await del(user)).toMatchObject({ status: 200, body: { success: true, message: expect.any(String) } });
    expect(await row(user.id)).toBeNull();
    expect((await get(user)).body.heartbeat).toEqual({ frequency: '3h', enabled: false, lastHeartbeat: null, nextHeartbeat: null });
    expect((await del(user)).status).toBe(200);
  });

  it('when one user saves, then another user\'s settings are untouched, and without credentials every method is 401', async () => {
    const a = await signUpAndIn(app);
    const b = await signUpAndIn(app);
    await post(a, { frequency: '6h', enabled: true });
    expect((await get(b)).body.heartbeat.enabled).toBe(false);
    await del(b);
    expect(await row(a.id)).toMatchObject({ frequency: '6h', enabled: true });
    for (const method of ['GET', 'POST', 'DELETE'] as const) expect((await call(app, { method, url: '/api/heartbeat', payload: method === 'POST' ? {} : undefined })).status).toBe(401);
  });

  it('when the system role touches the tables, then it may only find who is due and clear memory, never read settings or write values', async () => {
    const client = await infra.pools.system.connect();
    const refused = async (text: string) => {
      await client.query('savepoint s');
      await expect(client.query(text)).rejects.toThrow(/permission denied/);
      await client.query('rollback to savepoint s');
    };
    try {
      await client.query('begin');
      await client.query(`select user_id, enabled, next_heartbeat from heartbeats`);
      await refused(`select frequency from heartbeats`);
      await refused(`update heartbeats set enabled = false`);
      await refused(`delete from heartbeats`);
      await client.query(`select agent_id, key, value from agent_memory`);
      await client.query(`delete from agent_memory where false`);
      await refused(`update agent_memory set value = '1'`);
      await refused(`insert into agent_memory (agent_id, user_id, key, value) values (gen_random_uuid(), gen_random_uuid(), 'k', '1')`);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
