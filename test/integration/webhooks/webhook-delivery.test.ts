import { afterAll, describe, expect, it } from 'vitest';
import { startWorker } from '../../../src/bootstrap/worker.js';
import { waitFor } from '../../support/polling.js';
import { call, signUpAndIn, signUpVerifiedAndIn, uniqueEmail, type SignedIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';
import { startWebhookReceiver } from '../../support/webhooks/receiver.js';

/**
 * Outbound events end to end: an admin registers endpoints on a local receiver that verifies every
 * request with standardwebhooks' Webhook.verify and fails on purpose; the worker relays the outbox
 * and delivers with pg-boss retries (2 retries, from a 1-second delay) and a dead letter.
 */
const ADMIN = uniqueEmail('admin');
const receiver = await startWebhookReceiver();
afterAll(() => receiver.close());
const t = await startTestApp({
  env: { ADMIN_EMAILS: ADMIN, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_LIMIT: '2', WEBHOOK_RETRY_DELAY_SECONDS: '1' },
});
await startWorker(t.container, t.infra.queue, t.infra.afterQueueStops);
const { app } = t;
const owner = t.infra.pools.owner;
const admin = await signUpVerifiedAndIn(app, owner, { email: ADMIN });

const post = (u: SignedIn, url: string, payload?: object) => call(app, { method: 'POST', url, headers: u.headers, ...(payload === undefined ? {} : { payload }) });
const get = (u: SignedIn, url: string) => call(app, { method: 'GET', url, headers: u.headers });

async function endpoint(path: string, answers: number[], eventTypes = ['user.created', 'user.updated', 'user.deleted']) {
  const res = await post(admin, '/api/admin/webhooks', { url: `${receiver.base}${path}`, eventTypes });
  expect(res.status).toBe(201);
  receiver.route(path, res.body.secret, answers);
  return res.body as { id: string; secret: string };
}
const deliveries = async (id: string) => (await get(admin, `/api/admin/webhooks/${id}/deliveries`)).body.deliveries as Record<string, unknown>[];

describe('outbound events', () => {
  it('when the receiver fails twice and then answers 200, then the event is delivered on the 3rd attempt with the same webhook-id, each signature verified', async () => {
    const ep = await endpoint('/flaky', [500, 500, 200], ['user.created']);
    const user = await signUpAndIn(app);
    // only this user's event (an earlier user's may reach the endpoint too)
    const hits = await waitFor(async () => receiver.received.filter((r) => r.path === '/flaky' && r.body.includes(user.id)), (h) => h.length >= 3, 30_000);
    expect(hits.map((h) => h.answered)).toEqual([500, 500, 200]);
    expect(hits.every((h) => h.verified)).toBe(true);
    expect(new Set(hits.map((h) => h.headers['webhook-id'])).size).toBe(1);
    const body = JSON.parse(hits[0]!.body);
    expect(body).toMatchObject({ type: 'user.created', data: { id: user.id, email: user.email } });
    const ds = await waitFor(() => deliveries(ep.id), (all) => all.some((x) => x.eventId === hits[0]!.headers['webhook-id'] && x.status === 'delivered'));
    const d = ds.find((x) => x.eventId === hits[0]!.headers['webhook-id']);
    expect(d).toMatchObject({ eventId: hits[0]!.headers['webhook-id'], eventType: 'user.created', status: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null });
    const attempts = await owner.query(`select attempt, status_code, error from webhook_delivery_attempts where delivery_id = $1 order by attempt`, [d!.id]);
    expect(attempts.rows).toEqual([
      { attempt: 1, status_code: 500, error: 'HTTP 500' },
      { attempt: 2, status_code: 500, error: 'HTTP 500' },
      { attempt: 3, status_code: 200, error: null },
    ]);
  });

  it('when the receiver always fails, then the delivery is dead-lettered after the last try and listed as dead with its last error', async () => {
    const ep = await endpoint('/down', [500], ['user.updated']);
    const user = await signUpAndIn(app);
    expect((await call(app, { method: 'POST', url: '/api/settings', headers: user.headers, payload: { name: 'Renamed' } })).status).toBe(200);
    const mine = async () => (await deliveries(ep.id)).filter((x) => x.eventType === 'user.updated');
    const [d] = await waitFor(mine, (ds) => ds[0]?.status === 'dead', 30_000);
    expect(d).toMatchObject({ eventType: 'user.updated', status: 'dead', attempts: 3, lastStatusCode: 500, lastError: 'HTTP 500' });
    const dead = await waitFor(
      async () => (await owner.query(`select count(*)::int n from pgboss.job where name = 'webhooks_dead' and data->>'deliveryId' = $1`, [d!.id])).rows[0].n,
      (n) => n > 0,
    );
    expect(dead).toBe(1);
  });

  it('when several relays run at once, then each (event, endpoint) pair gets one delivery and one job', async () => {
    const ep = await endpoint('/once', [200], ['user.deleted']);
    const user = await signUpAndIn(app);
    await t.infra.queue.boss.stop({ graceful: true, timeout: 5_000 }).catch(() => {});
    // the worker is stopped: relay by hand, eight at once
    const { RelayOutboxEvents } = await import('../../../src/application/webhooks/relay-outbox-events.use-case.js');
    expect((await call(app, { method: 'DELETE', url: '/api/settings', headers: user.headers })).status).toBe(200);
    const relay = t.container.resolve(RelayOutboxEvents);
    await Promise.all(Array.from({ length: 8 }, () => relay.execute()));
    const rows = (await owner.query(`select d.id from webhook_deliveries d join outbox o on o.id = d.event_id where d.endpoint_id = $1 and o.user_id = $2`, [ep.id, user.id])).rows;
    expect(rows).toHaveLength(1);
    const jobs = (await owner.query(`select count(*)::int n from pgboss.job where name = 'webhooks' and data->>'deliveryId' = $1`, [rows[0].id])).rows[0].n;
    expect(jobs).toBe(1);
  });
});

describe('admin webhook endpoints', () => {
  it('the secret is sealed at rest, shown only on create and rotate, and rotation changes it', async () => {
    const ep = await endpoint('/admin', [200]);
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const raw = (await owner.query(`select sealed_secret from webhook_endpoints where id = $1`, [ep.id])).rows[0].sealed_secret as Buffer;
    expect(raw.toString('latin1')).not.toContain(ep.secret.slice(6));
    const list = await get(admin, '/api/admin/webhooks');
    expect(list.status).toBe(200);
    const listed = list.body.endpoints.find((e: { id: string }) => e.id === ep.id);
    expect(listed).toMatchObject({ url: `${receiver.base}/admin`, eventTypes: ['user.created', 'user.updated', 'user.deleted'] });
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const rotated = await post(admin, `/api/admin/webhooks/${ep.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(ep.secret);
    expect(rotated.body.secretRotatedAt).not.toBeNull();
  });

  it('when the input is bad, then 400 and nothing is stored', async () => {
    const before = (await owner.query('select count(*)::int n from webhook_endpoints')).rows[0].n;
    for (const payload of [{ url: 'not a url', eventTypes: ['user.created'] }, { url: 'https://example.com/h', eventTypes: [] }, { url: 'https://example.com/h', eventTypes: ['user.exploded'] }, { url: 'ftp://example.com/h', eventTypes: ['user.created'] }]) {
      const res = await post(admin, '/api/admin/webhooks', payload);
      expect(res.status).toBe(400);
    }
    expect((await get(admin, '/api/admin/webhooks/not-a-uuid/deliveries')).status).toBe(400);
    expect((await owner.query('select count(*)::int n from webhook_endpoints')).rows[0].n).toBe(before);
  });

  it('when the endpoint does not exist, then rotate, delete and deliveries answer 404', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await post(admin, `/api/admin/webhooks/${id}/rotate-secret`)).status).toBe(404);
    expect((await call(app, { method: 'DELETE', url: `/api/admin/webhooks/${id}`, headers: admin.headers })).status).toBe(404);
    expect((await get(admin, `/api/admin/webhooks/${id}/deliveries`)).status).toBe(404);
  });

  it('when a non-admin calls, then 403 and nothing is shown or changed; without credentials 401', async () => {
    const ep = await endpoint('/private', [200]);
    const user = await signUpAndIn(app);
    expect((await get(user, '/api/admin/webhooks')).status).toBe(403);
    expect((await post(user, '/api/admin/webhooks', { url: 'https://example.com/h', eventTypes: ['user.created'] })).status).toBe(403);
    expect((await post(user, `/api/admin/webhooks/${ep.id}/rotate-secret`)).status).toBe(403);
    expect((await call(app, { method: 'DELETE', url: `/api/admin/webhooks/${ep.id}`, headers: user.headers })).status).toBe(403);
    expect((await call(app, { method: 'GET', url: '/api/admin/webhooks' })).status).toBe(401);
    expect((await owner.query('select count(*)::int n from webhook_endpoints where id = $1', [ep.id])).rows[0].n).toBe(1);
  });

  it('delete removes the endpoint and its deliveries', async () => {
    const ep = await endpoint('/gone', [200]);
    const res = await call(app, { method: 'DELETE', url: `/api/admin/webhooks/${ep.id}`, headers: admin.headers });
    expect(res.status).toBe(200);
    expect((await get(admin, '/api/admin/webhooks')).body.endpoints.some((e: { id: string }) => e.id === ep.id)).toBe(false);
  });
});

describe('private targets', () => {
  it('when private targets are not allowed, then a loopback URL is refused with 400', async () => {
    const strict = await startTestApp({ env: { ADMIN_EMAILS: ADMIN } });
    const a = await signUpVerifiedAndIn(strict.app, strict.infra.pools.owner, { email: ADMIN });
    for (const url of ['http://127.0.0.1:9/h', 'http://localhost/h', 'http://[::1]/h', 'http://169.254.169.254/latest']) {
      const res = await call(strict.app, { method: 'POST', url: '/api/admin/webhooks', headers: a.headers, payload: { url, eventTypes: ['user.created'] } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('WEBHOOK_TARGET_REFUSED');
    }
  });
});
