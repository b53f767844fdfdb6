import { describe, expect, it } from 'vitest';
import { openTestPersistence } from '../../support/persistence.js';
import { insertUser } from '../../support/builders.js';
import { sleep } from '../../support/polling.js';

const { uow, queue, pools } = await openTestPersistence({ work: true });
const ran: string[] = [];
queue.register('test.record', async (data) => {
  ran.push(String(data.marker));
});
await queue.work();
const user = await insertUser(uow);


describe('jobs sent inside a unit of work', () => {
  it('when the transaction commits, then the job runs', async () => {
    await uow.asUser(user.id, (s) => s.jobs.send({ queue: 'tasks', kind: 'test.record', data: { marker: 'committed' } }));
    await expect.poll(() => ran, { timeout: 10_000, interval: 50 }).toContain('committed');
  });

  it('when the transaction rolls back, then the job never exists', async () => {
    await expect(
      uow.asUser(user.id, async (s) => {
        await s.jobs.send({ queue: 'tasks', kind: 'test.record', data: { marker: 'rolled-back' } });
        throw new Error('use case failed after sending');
      }),
    ).rejects.toThrow('use case failed');
    await uow.asSystem((s) => s.jobs.send({ queue: 'provision', kind: 'test.record', data: { marker: 'after' } }));
    await expect.poll(() => ran, { timeout: 10_000, interval: 50 }).toContain('after');
    const stored = await pools.owner.query(`select count(*)::int as n from pgboss.job where data->>'marker' = 'rolled-back'`);
    expect(stored.rows[0].n).toBe(0);
    expect(ran).not.toContain('rolled-back');
  });

  it('when a handler throws a plain error, then the job is retried with a delay', async () => {
    let attempts = 0;
    queue.register('test.flaky', async () => {
      attempts++;
      throw new Error('transient');
    });
    const id = await uow.asSystem((s) => s.jobs.send({ queue: 'tasks', kind: 'test.flaky', data: {} }));
    const job = async () => (await pools.owner.query(`select state, retry_limit, retry_delay, retry_backoff from pgboss.job where id = $1`, [id])).rows[0];
    await expect.poll(job, { timeout: 10_000, interval: 50 }).toMatchObject({ state: 'retry' });
    expect(await job()).toMatchObject({ retry_limit: 5, retry_delay: 5, retry_backoff: true });
    // a negative: the worker polls every second, so a retry without the 5 s delay would have run within this pause
    await sleep(1_200);
    expect(await job()).toMatchObject({ state: 'retry' });
    expect(attempts).toBe(1);
  });
});
