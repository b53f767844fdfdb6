import { describe, expect, it } from 'vitest';
import { PRUNE_JOBS } from '../../../src/adapters/inbound/jobs/webhook-and-mail.handlers.js';
import { PruneOldData } from '../../../src/application/maintenance/prune-old-data.use-case.js';
import { startWorker } from '../../../src/bootstrap/worker.js';
import { GetAgentStats } from '../../../src/application/instances/get-agent-stats.use-case.js';
import type { Actor } from '../../../src/application/auth/actor.js';
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

  /** An agent row (no runtime) with `pairs` answered exchanges `daysAgo` days back, and one failed question. */
  const agentWithHistory = async (daysAgo: number, pairs: number) => {
    const agentId = (await owner.query(`insert into agents (user_id, name, model, status) values ($1, 'Pruned', 'm', 'running') returning id`, [user.id])).rows[0].id as string;
    for (let i = 0; i < pairs; i++) {
      const at = `now() - make_interval(days => ${daysAgo}) + make_interval(secs => ${i})`;
      const q = (await owner.query(`insert into agent_messages (agent_id, user_id, role, content, created_at) values ($1, $2, 'user', 'q', ${at}) returning id`, [agentId, user.id])).rows[0].id;
      const a = (await owner.query(`insert into agent_messages (agent_id, user_id, role, content, created_at) values ($1, $2, 'assistant', 'a', ${at}) returning id`, [agentId, user.id])).rows[0].id;
      await owner.query(
        `insert into agent_mailbox (message_id, agent_id, user_id, status, reply_message_id, queued_at, finished_at) values ($1, $2, $3, 'answered', $4, ${at}, ${at})`,
        [q, agentId, user.id, a],
      );
      await owner.query(`insert into agent_events (agent_id, user_id, kind, duration_ms, at) values ($1, $2, 'message_answered', $3, ${at})`, [agentId, user.id, 100 * (i + 1)]);
    }
    const f = (await owner.query(`insert into agent_messages (agent_id, user_id, role, content, created_at) values ($1, $2, 'user', 'failed q', now() - make_interval(days => ${daysAgo})) returning id`, [agentId, user.id])).rows[0].id;
    await owner.query(
      `insert into agent_mailbox (message_id, agent_id, user_id, status, error_code, error, queued_at, finished_at) values ($1, $2, $3, 'failed', 'PROVIDER_ERROR', 'x', now() - make_interval(days => ${daysAgo}), now() - make_interval(days => ${daysAgo}))`,
      [f, agentId, user.id],
    );
    await owner.query(`insert into agent_events (agent_id, user_id, kind, at) values ($1, $2, 'message_failed', now() - make_interval(days => ${daysAgo})), ($1, $2, 'started', now() - make_interval(days => ${daysAgo}))`, [agentId, user.id]);
    return agentId;
  };
  const stats = (agentId: string) => t.container.resolve(GetAgentStats).execute({ userId: user.id } as Actor, agentId).then((s) => s.figures);
  const page = async (agentId: string) => (await t.app.inject({ method: 'GET', url: `/api/agents/${agentId}/messages?limit=100`, headers: { cookie: user.cookie } })).json();

  it('answered mailbox rows older than 31 days go; failed and recent ones stay, and every message with its failure code stays', async () => {
    const old = await agentWithHistory(40, 3);
    const recent = await agentWithHistory(2, 2);
    const before = { old: await page(old), recent: await page(recent) };
    expect(await prune.execute('mailbox')).toBeGreaterThanOrEqual(3);
    expect(await n(`select count(*)::int n from agent_mailbox where agent_id = $1`, [old])).toBe(1);
    expect(await n(`select count(*)::int n from agent_mailbox where agent_id = $1 and status = 'failed'`, [old])).toBe(1);
    expect(await n(`select count(*)::int n from agent_mailbox where agent_id = $1`, [recent])).toBe(3);
    // what the owner reads is unchanged: the same messages, the failed one still marked
    expect(await page(old)).toEqual(before.old);
    expect(await page(recent)).toEqual(before.recent);
    expect(JSON.stringify(before.old)).toContain('PROVIDER_ERROR');
    expect(await prune.execute('mailbox')).toBe(0);
  });

  it('message events older than 31 days go into their agent\'s totals: the agent\'s figures stay what they were', async () => {
    const agentId = await agentWithHistory(45, 4);
    await owner.query(`insert into agent_events (agent_id, user_id, kind, duration_ms, at) values ($1, $2, 'message_answered', 1000, now())`, [agentId, user.id]);
    const before = await stats(agentId);
    expect(before).toMatchObject({ answered: 5, failed: 1, averageAnswerMs: (100 + 200 + 300 + 400 + 1000) / 5 });
    expect(await prune.execute('agent-events')).toBeGreaterThanOrEqual(5);
    expect(await n(`select count(*)::int n from agent_events where agent_id = $1`, [agentId])).toBe(2); // started, and the recent answer
    expect(await stats(agentId)).toEqual(before);
    expect(await prune.execute('agent-events')).toBe(0);
    expect(await stats(agentId)).toEqual(before);
  });

  it('a backlog larger than one batch goes in one run (batches of 5,000), its totals complete', async () => {
    const agentId = (await owner.query(`insert into agents (user_id, name, model, status) values ($1, 'Backlog', 'm', 'running') returning id`, [user.id])).rows[0].id as string;
    await owner.query(
      `insert into agent_events (agent_id, user_id, kind, duration_ms, at) select $1, $2, 'message_answered', 10, now() - interval '40 days' from generate_series(1, 12000)`,
      [agentId, user.id],
    );
    expect(await prune.execute('agent-events')).toBe(12000);
    expect(await stats(agentId)).toMatchObject({ answered: 12000, averageAnswerMs: 10 });
  });
});
