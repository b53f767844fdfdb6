import { describe, expect, it } from 'vitest';
import { PRUNE_JOBS } from '../../../src/adapters/inbound/jobs/webhook-and-mail.handlers.js';
import { PruneOldData } from '../../../src/application/maintenance/prune-old-data.use-case.js';
import { startWorker } from '../../../src/bootstrap/worker.js';
import { signUpAndIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/** The scheduled pruning jobs: what each deletes, what each keeps, run as the system role they are granted to. */
const t = await startTestApp();
await startWorker(t.container, t.infra.queue, t.infra.afterQueueStops);
const owner = t.infra.pools.owner;
const prune = t.container.resolve(PruneOldData);
const user = await signUpAndIn(t.app);
const n = async (sql: string, params: unknown[] = []) => (await owner.query(sql, params)).rows[0].n as number;

describe('scheduled pruning', () => {
  it('every pruning job is scheduled on the maintenance queue', async () => {
    const { rows } = await owner.query(`select key from pgboss.schedule where name = 'maintenance'`);
    const keys = rows.map((r: { key: string }) => r.key);
    for (const kind of Object.keys(PRUNE_JOBS)) expect(keys).toContain(kind);
  });

  it('daily usage older than 90 days goes, recent days stay', async () => {
    await owner.query(`insert into daily_usage (user_id, day, used_units) values ($1, current_date - 120, 5), ($1, current_date - 89, 5), ($1, current_date, 5)`, [user.id]);
    expect(await prune.execute('daily-usage')).toBe(1);
    expect(await n(`select count(*)::int n from daily_usage where user_id = $1`, [user.id])).toBe(2);
    expect(await prune.execute('daily-usage')).toBe(0);
  });

  it('expired sessions go, live ones stay (the signed-in session still works)', async () => {
    await owner.query(`insert into sessions (user_id, token_hash, expires_at) values ($1, sha256('x1'), now() - interval '1 minute')`, [user.id]);
    const before = await n(`select count(*)::int n from sessions where user_id = $1`, [user.id]);
    expect(await prune.execute('sessions')).toBe(1);
    expect(await n(`select count(*)::int n from sessions where user_id = $1`, [user.id])).toBe(before - 1);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: user.cookie } })).json().user).not.toBeNull();
  });

  it('expired wallet nonces go, unexpired ones stay', async () => {
    await owner.query(`insert into wallet_nonces (nonce_hash, expires_at) values (sha256('n1'), now() - interval '1 minute'), (sha256('n2'), now() + interval '5 minutes')`);
    expect(await prune.execute('wallet-nonces')).toBe(1);
    expect(await n(`select count(*)::int n from wallet_nonces where nonce_hash = sha256('n2')`)).toBe(1);
  });

  it('outbox rows delivered over 30 days ago and old mail go; undelivered events and recent rows stay', async () => {
    await owner.query(`delete from outbox`);
    await owner.query(
      `insert into outbox (topic, payload, created_at, delivered_at) values
        ('user.created', '{}', now() - interval '40 days', now() - interval '40 days'),
        ('mail', '{}', now() - interval '40 days', null),
        ('user.updated', '{}', now() - interval '40 days', null),
        ('user.created', '{}', now() - interval '1 day', now() - interval '1 day')`,
    );
    expect(await prune.execute('outbox')).toBe(2);
    expect((await owner.query(`select topic from outbox order by id`)).rows.map((r: { topic: string }) => r.topic)).toEqual(['user.updated', 'user.created']);
  });

  it('webhook deliveries older than 30 days go, recent ones stay', async () => {
    const ep = (
      await owner.query(`insert into webhook_endpoints (url, event_types, key_id, sealed_secret) values ('https://example.com/h', '{user.created}', 'k', '\\x00') returning id`)
    ).rows[0].id;
    await owner.query(
      `insert into webhook_deliveries (endpoint_id, event_id, event_type, created_at) values ($1, 1, 'user.created', now() - interval '31 days'), ($1, 2, 'user.created', now())`,
      [ep],
    );
    expect(await prune.execute('webhook-deliveries')).toBe(1);
    expect(await n(`select count(*)::int n from webhook_deliveries where endpoint_id = $1`, [ep])).toBe(1);
  });
});
