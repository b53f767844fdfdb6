import { RELAY_OUTBOX_EVENTS_CRON } from '../../../src/application/webhooks/webhook-jobs.js';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { spawnService } from '../../support/service-process.js';

describe('SERVICE_ROLE=worker', () => {
  it('runs the job handlers and their schedules without serving HTTP, and stops cleanly on SIGTERM', async () => {
    const service = await spawnService({ SERVICE_ROLE: 'worker' });
    // the start takes seconds alone and far longer on a loaded machine: wait for it, not a fixed 15 s
    await expect.poll(() => service.output.includes('"msg":"service started"'), { timeout: 90_000, interval: 200 }).toBe(true);
    expect(service.output).toContain('"role":"worker"');
    await expect(fetch(`${service.base}/health`)).rejects.toThrow();
    const db = new pg.Client({ connectionString: service.databaseUrl });
    await db.connect();
    const schedules = await db.query(`select name, key, cron from pgboss.schedule order by key`).finally(() => db.end());
    expect(schedules.rows).toEqual([
      { name: 'maintenance', key: 'gateway.purge-expired-challenges', cron: '17 * * * *' },
      { name: 'maintenance', key: 'heartbeat.send-due', cron: '* * * * *' },
      { name: 'maintenance', key: 'metrics.sample-instances', cron: '* * * * *' },
      { name: 'maintenance', key: 'prune.agent-events', cron: '40 3 * * *' },
      { name: 'maintenance', key: 'prune.daily-usage', cron: '10 3 * * *' },
      { name: 'maintenance', key: 'prune.mailbox', cron: '35 3 * * *' },
      { name: 'maintenance', key: 'prune.outbox', cron: '25 3 * * *' },
      { name: 'maintenance', key: 'prune.sessions', cron: '15 3 * * *' },
      { name: 'maintenance', key: 'prune.wallet-nonces', cron: '20 3 * * *' },
      { name: 'maintenance', key: 'prune.webhook-deliveries', cron: '30 3 * * *' },
      { name: 'maintenance', key: 'schedules.run-due', cron: '* * * * *' },
      { name: 'maintenance', key: 'usage.release-stale-reservations', cron: '* * * * *' },
      { name: 'maintenance', key: 'wallet.sweep-unfinished-payouts', cron: '*/5 * * * *' },
      { name: 'maintenance', key: 'webhooks.relay', cron: RELAY_OUTBOX_EVENTS_CRON },
    ]);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 150_000);
});
