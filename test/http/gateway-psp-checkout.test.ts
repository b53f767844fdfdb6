import { describe, expect, it } from 'vitest';
import { ONE_CALL_GRANTS } from '../../src/application/ports/one-call-grants.port.js';
import type { UserId } from '../../src/domain/shared/ids.js';
import { buyOneCall } from '../support/gateway/one-call-purchase.js';
import { bearer, call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * GET /api/v1/payments/psp/create with the development processor: one paid checkout is exactly
 * one call of that plugin for that buyer, taken once by the gateway's OneCallGrants.
 */
const { app, infra, container, config } = await startTestApp();
const owner = infra.pools.owner;
const grants = container.resolve(ONE_CALL_GRANTS);

const create = (u: SignedIn, plugin: string, headers: Record<string, string> = {}) =>
  call(app, { method: 'GET', url: `/api/v1/payments/psp/create?plugin=${encodeURIComponent(plugin)}`, headers: { cookie: u.cookie, ...headers } });
const rowsOf = async (u: SignedIn) =>
  (await owner.query('select id, plugin, session_id, status from one_call_grants where user_id = $1 order by created_at', [u.id])).rows;
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const consume = (u: SignedIn, plugin: 'agent' | 'generate-text' | 'tts' | 'stt') => grants.consume(u.id as UserId, plugin);

/** Opens a checkout and pays it on the development completion page; returns the grant id. */
async function buy(u: SignedIn, plugin: string): Promise<string> {
  await buyOneCall(app, u, plugin);
  return (await rowsOf(u)).at(-1)!.id;
}

describe('GET /api/v1/payments/psp/create (development processor)', () => {
  it('when a client asks for JSON, then {url} of the completion page and one pending grant naming the session', async () => {
    const u = await signUpAndIn(app);
    const res = await create(u, 'generate-text');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['url']);
    expect(res.body.url.startsWith(`${config.APP_URL}/api/psp/dev/complete?session=`)).toBe(true);
    expect(await rowsOf(u)).toEqual([{ id: expect.any(String), plugin: 'generate-text', session_id: expect.stringMatching(/^cs_dev_/), status: 'pending' }]);
    // nothing is usable before the payment completes
    expect(await consume(u, 'generate-text')).toBeNull();
  });

  it('when a browser asks (Accept text/html), then 303 to the checkout', async () => {
    const u = await signUpAndIn(app);
    const res = await create(u, 'tts', { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/\/api\/psp\/dev\/complete\?session=/);
    expect((await rowsOf(u)).map((r) => r.status)).toEqual(['pending']);
  });

  it('when paid on the completion page, then exactly one call: the first consume takes it, the second gets null', async () => {
    const u = await signUpAndIn(app);
    const res = await create(u, 'stt');
    const done = await call(app, { method: 'GET', url: pathOf(res.body.url) });
    expect(done.status).toBe(302);
    expect(done.headers.location).toBe(`${config.APP_URL}/settings?checkout=success`);
    const [grant] = await rowsOf(u);
    expect(grant.status).toBe('paid');
    // opening the link again (a reload) grants nothing more
    expect((await call(app, { method: 'GET', url: pathOf(res.body.url) })).status).toBe(302);
    expect((await rowsOf(u)).map((r) => r.status)).toEqual(['paid']);

    expect(await consume(u, 'stt')).toEqual({ grantId: grant.id });
    expect(await consume(u, 'stt')).toBeNull();
    expect((await rowsOf(u)).map((r) => r.status)).toEqual(['consumed']);
    // a reload after the call was served does not bring it back
    await call(app, { method: 'GET', url: pathOf(res.body.url) });
    expect(await consume(u, 'stt')).toBeNull();
  });

  it('when a taken grant is restored (the plugin failed), then it can be taken once more, and a second restore adds nothing', async () => {
    const u = await signUpAndIn(app);
    const id = await buy(u, 'agent');
    expect(await consume(u, 'agent')).toEqual({ grantId: id });
    await grants.restore(id);
    await grants.restore(id);
    expect(await consume(u, 'agent')).toEqual({ grantId: id });
    expect(await consume(u, 'agent')).toBeNull();
    await grants.restore('not-a-grant-id');
  });

  it('when two calls were bought, then two consumes succeed, the oldest paid first', async () => {
    const u = await signUpAndIn(app);
    const first = await buy(u, 'tts');
    const second = await buy(u, 'tts');
    expect(await consume(u, 'tts')).toEqual({ grantId: first });
    expect(await consume(u, 'tts')).toEqual({ grantId: second });
    expect(await consume(u, 'tts')).toBeNull();
  });

  it('when a call of one plugin was bought, then it cannot be consumed for another plugin', async () => {
    const u = await signUpAndIn(app);
    const id = await buy(u, 'tts');
    for (const other of ['agent', 'generate-text', 'stt'] as const) expect(await consume(u, other)).toBeNull();
    expect(await consume(u, 'tts')).toEqual({ grantId: id });
  });

  it("when another user has a paid grant, then it is invisible: their consume gets null and the buyer's grant stays", async () => {
    const a = await signUpAndIn(app);
    const b = await signUpAndIn(app);
    const id = await buy(a, 'generate-text');
    expect(await consume(b, 'generate-text')).toBeNull();
    // row-level security as b, straight on the user role
    const client = await infra.pools.user.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('app.user_id', $1, true)`, [b.id]);
      expect((await client.query('select count(*)::int n from one_call_grants where id = $1', [id])).rows[0].n).toBe(0);
      const taken = await client.query(`update one_call_grants set status = 'consumed', consumed_at = now() where id = $1`, [id]);
      expect(taken.rowCount).toBe(0);
      await client.query('rollback');
    } finally {
      client.release();
    }
    expect(await consume(a, 'generate-text')).toEqual({ grantId: id });
  });

  it('a user cannot mark their own pending grant paid, even straight on the user role', async () => {
    const u = await signUpAndIn(app);
    await create(u, 'tts');
    const [grant] = await rowsOf(u);
    const client = await infra.pools.user.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('app.user_id', $1, true)`, [u.id]);
      const r = await client.query(`update one_call_grants set status = 'consumed', consumed_at = now() where id = $1`, [grant.id]);
      expect(r.rowCount).toBe(0);
      await expect(client.query(`update one_call_grants set paid_at = now() where id = $1`, [grant.id])).rejects.toThrow(/permission denied/);
      await client.query('rollback');
    } finally {
      client.release();
    }
    expect((await rowsOf(u)).map((r) => r.status)).toEqual(['pending']);
  });

  it('when 10 consumes of one grant run at once, then exactly one gets it', async () => {
    const u = await signUpAndIn(app);
    const id = await buy(u, 'generate-text');
    const results = await Promise.all(Array.from({ length: 10 }, () => consume(u, 'generate-text')));
    expect(results.filter((r) => r !== null)).toEqual([{ grantId: id }]);
    expect((await rowsOf(u)).map((r) => r.status)).toEqual(['consumed']);
  });

  it.each([
    ['an unknown plugin', '/api/v1/payments/psp/create?plugin=image'],
    ['no plugin', '/api/v1/payments/psp/create'],
    ['an empty plugin', '/api/v1/payments/psp/create?plugin='],
  ])('when the query names %s, then 400 VALIDATION_ERROR and nothing is created', async (_what, url) => {
    const u = await signUpAndIn(app);
    const res = await call(app, { method: 'GET', url, headers: { cookie: u.cookie } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(await rowsOf(u)).toEqual([]);
  });

  it('without credentials, then 401 AUTH_REQUIRED; an API key and a JWT work like the session', async () => {
    const res = await call(app, { method: 'GET', url: '/api/v1/payments/psp/create?plugin=tts' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH_REQUIRED');
    const u = await signUpAndIn(app);
    const { key } = (await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'psp' } })).body;
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: u.headers })).body.token;
    for (const token of [key, jwt]) {
      const r = await call(app, { method: 'GET', url: '/api/v1/payments/psp/create?plugin=tts', headers: bearer(token) });
      expect(r.status).toBe(200);
    }
    expect((await rowsOf(u)).length).toBe(2);
  });
});
