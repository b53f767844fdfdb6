import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../../../src/adapters/outbound/persistence/pg-errors.js';
import { DomainError } from '../../../src/domain/shared/domain-error.js';
import { openTestPersistence } from '../../support/persistence.js';
import { until } from '../../support/polling.js';

/** How the queue adapter ends a job whose handler failed: a database outage is retried, a domain rule's "no" is final. */
const { queue } = await openTestPersistence({ work: true });
await queue.work();

const stateOf = async (id: string) => (await queue.boss.getJobById('tasks', id))?.state;

describe('a job whose handler meets a database outage', () => {
  it('when the handler fails with DATABASE_UNAVAILABLE and then works, then the job is retried in place and completes (never ended as a domain rejection)', async () => {
    let calls = 0;
    queue.register('fault.outage', async () => {
      calls++;
      if (calls < 3) throw new DatabaseUnavailableError(new Error('connect ECONNREFUSED'));
    });
    const id = (await queue.boss.send('tasks', { kind: 'fault.outage' }))!;
    expect(await until('the job to complete', 20_000, async () => ((await stateOf(id)) === 'completed' ? 'completed' : null))).toBe('completed');
    expect(calls).toBe(3);
  });

  it('when the handler fails with any other domain error, then the job ends at once without a retry', async () => {
    let calls = 0;
    queue.register('fault.rule', async () => {
      calls++;
      throw new DomainError('SOME_RULE', 'no');
    });
    const id = (await queue.boss.send('tasks', { kind: 'fault.rule' }))!;
    expect(await until('the job to end', 20_000, async () => ((await stateOf(id)) === 'completed' ? 'completed' : null))).toBe('completed');
    expect(calls).toBe(1);
  });
});
