import { describe, expect, it } from 'vitest';
import { createPgPools } from '../../../src/adapters/outbound/persistence/pg-pools.js';
import { PgUnitOfWork } from '../../../src/adapters/outbound/persistence/pg-unit-of-work.js';
import { openTestPersistence } from '../../support/persistence.js';
import { insertUser } from '../../support/builders.js';

const { db, uow, queue } = await openTestPersistence();
// One connection only: every read below runs on the same pooled connection and its prepared statement.
const single = createPgPools({ databaseUrl: db.url, size: 1 });
const oneConnection = new PgUnitOfWork(single, (executor) => queue.senderFor(executor));
const alice = await insertUser(uow, { name: 'Alice' });
const bob = await insertUser(uow, { name: 'Bob' });

describe('one-message hot reads', () => {
  it('a statement prepared on a connection still sees only the acting user, whoever used it before', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 8; i++) {
      const [me, other] = i % 2 ? [alice, bob] : [bob, alice];
      const profile = await oneConnection.readAsUser(me.id, 'profile');
      expect(profile?.id).toBe(me.id);
      seen.push(profile!.name);
      const access = await oneConnection.readAsUser(other.id, 'chatAccess');
      expect(access).toEqual({ subscriptions: [], byokProviders: [] });
    }
    expect(seen).toEqual(['Bob', 'Alice', 'Bob', 'Alice', 'Bob', 'Alice', 'Bob', 'Alice']);
  });

  it('when the server forgot the prepared statement, the read prepares it again and succeeds', async () => {
    await oneConnection.readAsUser(alice.id, 'profile');
    await single.user.query('DEALLOCATE ALL');
    expect((await oneConnection.readAsUser(alice.id, 'profile'))?.name).toBe('Alice');
  });

  it('after the reads, the connection carries no identity', async () => {
    await oneConnection.readAsUser(alice.id, 'profile');
    const r = await single.user.query(`select nullif(current_setting('app.user_id', true), '') as id, (select count(*)::int from users) as n`);
    expect(r.rows[0]).toEqual({ id: null, n: 0 });
    await single.end();
  });
});
