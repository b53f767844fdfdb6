import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PGBOSS_SCHEMA, PgBossQueue, QUEUES } from '../../../src/adapters/outbound/queue/pg-boss-queue.js';
import { createTestDatabase } from '../../support/test-database.js';

/**
 * What a start does to pg-boss's side of the database: its schema installed and the queues declared
 * with their policies (created when missing, updated where the settings changed, untouched when
 * nothing did), and the app roles allowed to send.
 */
const db = await createTestDatabase();
const owner = new pg.Pool({ connectionString: db.url, max: 2 });
const queues: PgBossQueue[] = [];
afterAll(async () => {
  for (const q of queues) await q.stop(1_000).catch(() => {});
  await owner.end();
});

const start = async (retries?: { webhooks: { retryLimit: number; retryDelay: number } }) => {
  const queue = new PgBossQueue({ connectionString: db.url, supervise: false, log: console, ...(retries ? { retries } : {}) });
  queues.push(queue);
  await queue.start(owner);
  await queue.stop(1_000);
};
const declared = async () =>
  (await owner.query<{ name: string; retry_limit: number; retry_delay: number; dead_letter: string | null; updated_on: Date }>(`SELECT name, retry_limit, retry_delay, dead_letter, updated_on FROM ${PGBOSS_SCHEMA}.queue ORDER BY name`)).rows;

describe("pg-boss's schema and queues at a start", () => {
  it('when the database has no pg-boss schema, then a start installs it, declares every queue with its policy and lets the app roles send', async () => {
    await owner.query(`DROP SCHEMA IF EXISTS ${PGBOSS_SCHEMA} CASCADE`);
    await start();
    const rows = await declared();
    expect(rows.map((r) => r.name)).toEqual([...Object.keys(QUEUES), 'mail_dead', 'webhooks_dead'].sort());
    const webhooks = rows.find((r) => r.name === 'webhooks')!;
    expect([webhooks.retry_limit, webhooks.retry_delay, webhooks.dead_letter]).toEqual([QUEUES.webhooks.retryLimit, QUEUES.webhooks.retryDelay, 'webhooks_dead']);
    const { rows: grants } = await owner.query<{ ok: boolean }>(`SELECT has_table_privilege('app_user', '${PGBOSS_SCHEMA}.job', 'INSERT') AND has_table_privilege('app_system', '${PGBOSS_SCHEMA}.job', 'INSERT') AS ok`);
    expect(grants[0]!.ok).toBe(true);
  });

  it('when a start has other retry settings, then it updates that queue alone; when the next has the same, then it writes nothing', async () => {
    const before = await declared();
    await start({ webhooks: { retryLimit: 2, retryDelay: 1 } });
    const after = await declared();
    const webhooks = after.find((r) => r.name === 'webhooks')!;
    expect([webhooks.retry_limit, webhooks.retry_delay, webhooks.dead_letter]).toEqual([2, 1, 'webhooks_dead']);
    const changed = after.filter((r) => r.updated_on.getTime() !== before.find((b) => b.name === r.name)!.updated_on.getTime()).map((r) => r.name);
    expect(changed).toEqual(['webhooks']);

    await start({ webhooks: { retryLimit: 2, retryDelay: 1 } });
    expect(await declared()).toEqual(after);
  });
});
