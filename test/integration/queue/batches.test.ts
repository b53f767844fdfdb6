import { describe, expect, it } from 'vitest';
import { openTestPersistence } from '../../support/persistence.js';

/**
 * A queue's concurrency is fetched as one batch with an outcome per job: one job failing in a
 * batch retries alone, and a backlog drains without waiting out the polling interval per batch.
 */
const { uow, queue, pools } = await openTestPersistence({ work: true });
const done: string[] = [];
let inFlight = 0;
let mostInFlight = 0;
queue.register('test.batch', async (data) => {
  inFlight++;
  mostInFlight = Math.max(mostInFlight, inFlight);
  await new Promise((r) => setTimeout(r, 20));
  inFlight--;
  if (data.fail) throw new Error('this one fails');
  done.push(String(data.marker));
});
await queue.work();

const send = (marker: string, fail = false) => uow.asSystem((s) => s.jobs.send({ queue: 'provision', kind: 'test.batch', data: { marker, fail } }));

describe('batches of a queue', () => {
  it('when 20 provision jobs wait, then they run two at a time, never more, and the backlog drains in bursts (well under the 10 s one job a polling second would take)', async () => {
    const markers = Array.from({ length: 20 }, (_, i) => `burst-${i}`);
    for (const m of markers) await send(m);
    const started = Date.now();
    await expect.poll(() => markers.filter((m) => !done.includes(m)), { timeout: 15_000, interval: 20 }).toEqual([]);
    expect(mostInFlight).toBe(2);
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it('when one job of a batch fails, then it alone is retried and its neighbour completes', async () => {
    const good = await send('good-neighbour');
    const bad = await send('bad', true);
    const states = async () => {
      const { rows } = await pools.owner.query(`select id, state from pgboss.job where id = any($1::uuid[])`, [[good, bad]]);
      const state = Object.fromEntries(rows.map((r) => [r.id, r.state]));
      return { good: state[good], bad: state[bad] };
    };
    // the batch writes both outcomes once both handlers are done; the failed one then waits out its 10 s retry delay
    await expect.poll(states, { timeout: 15_000, interval: 50 }).toEqual({ good: 'completed', bad: 'retry' });
  });
});
