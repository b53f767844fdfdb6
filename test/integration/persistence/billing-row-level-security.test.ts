import { describe, expect, it } from 'vitest';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';

const { pools, uow } = await openTestPersistence();
const alice = await insertUser(uow);
const bob = await insertUser(uow);
await uow.asSystem(async (s) => {
  await s.paymentCustomers.remember(alice.id, 'cus_alice');
  await s.subscriptions.insert('sub_alice', { userId: alice.id, customerId: 'cus_alice', kind: 'subscription', plan: { catalog: 'checkout', plan: 'solo' } }, { status: 'active', lastEventAt: new Date() });
  await s.paymentLedger.recordCreditPurchase({ sessionId: 'cs_alice', userId: alice.id, pack: '50', credits: 5, eventId: 'evt_alice' });
});
await uow.asUser(alice.id, (s) => s.byokKeys.put({ provider: 'openai', sealed: { keyId: 'k1_test', ciphertext: Buffer.from('sealed') } }));
await pools.owner.query(`insert into daily_usage (user_id, day, used_units) values ($1, current_date, 7)`, [alice.id]);
await pools.owner.query(
  `insert into usage_reservations (id, payer, day, units, created_at) values ('11111111-1111-4111-8111-111111111111', $1, current_date, 7, now())`,
  [alice.id],
);

/** Runs `sql` as app_user acting as `userId`, in a transaction rolled back afterwards. */
async function asAppUser<T>(userId: string, fn: (q: (sql: string, v?: unknown[]) => Promise<{ rows: any[]; rowCount: number | null }>) => Promise<T>): Promise<T> {
  const client = await pools.user.connect();
  try {
    await client.query(`BEGIN; SELECT set_config('app.user_id', '${userId}', true)`);
    return await fn((sql, v) => client.query(sql, v));
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

describe('row-level security of billing', () => {
  it("when B reads billing tables, then none of A's rows are visible; A sees their own", async () => {
    const tables = ['subscriptions', 'payment_customers', 'credit_purchases', 'daily_usage', 'usage_reservations', 'byok_keys'];
    for (const t of tables) {
      expect((await asAppUser(bob.id, (q) => q(`select count(*)::int n from ${t}`))).rows[0].n, `bob ${t}`).toBe(0);
      expect((await asAppUser(alice.id, (q) => q(`select count(*)::int n from ${t}`))).rows[0].n, `alice ${t}`).toBe(1);
    }
    expect(await uow.asUser(bob.id, (s) => s.subscriptions.get('sub_alice'))).toBeNull();
    expect(await uow.asUser(bob.id, (s) => s.paymentCustomers.mine())).toBeNull();
    expect((await uow.asUser(alice.id, (s) => s.subscriptions.get('sub_alice')))?.plan).toEqual({ catalog: 'checkout', plan: 'solo' });
  });

  it('when a user tries to grant themselves a plan, usage, a reservation or a customer, then the grants refuse', async () => {
    const attempts = [
      `update usage_reservations set status = 'released', closed_at = now()`,
      `insert into usage_reservations (id, payer, day, units, created_at) values (gen_random_uuid(), '${bob.id}', current_date, 1, now())`,
      `delete from usage_reservations`,
      `update subscriptions set status = 'active'`,
      `insert into subscriptions (processor_subscription_id, user_id, status, last_event_at) values ('sub_x', '${bob.id}', 'active', now())`,
      `update daily_usage set used_units = 0`,
      `insert into payment_customers (user_id, customer_id) values ('${bob.id}', 'cus_x')`,
      `insert into credit_purchases (session_id, user_id, pack, credits, event_id) values ('cs_x', '${bob.id}', '500', 30, 'e')`,
      `insert into processed_events (event_id, type) values ('evt_x', 'x')`,
      `select * from unmatched_payment_events`,
      `update unmatched_payment_events set attached_user_id = '${bob.id}', attached_at = now(), attached_via = 'verified-email'`,
    ];
    for (const sql of attempts) await expect(asAppUser(bob.id, (q) => q(sql)), sql).rejects.toThrow(/permission denied/);
  });

  it("when B writes a BYOK key for A or deletes A's, then the policy refuses or finds nothing", async () => {
    await expect(
      asAppUser(bob.id, (q) => q(`insert into byok_keys (user_id, provider, key_id, ciphertext) values ($1, 'google', 'k', 'x')`, [alice.id])),
    ).rejects.toThrow(/row-level security/);
    expect(await uow.asUser(bob.id, (s) => s.byokKeys.delete())).toBe(0);
    expect(await uow.asUser(alice.id, (s) => s.byokKeys.list())).toHaveLength(1);
  });

  it('when one event id is recorded ten times at once, then exactly one recording is the first', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => uow.asSystem((s) => s.paymentLedger.recordEvent('evt_race', 'test'))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await uow.asSystem((s) => s.paymentLedger.recordEvent('evt_race', 'test'))).toBe(false);
  });

  it('when a recording rolls back with its effect, then the event can be recorded again', async () => {
    await expect(
      uow.asSystem(async (s) => {
        await s.paymentLedger.recordEvent('evt_rolled_back', 'test');
        throw new Error('effect failed');
      }),
    ).rejects.toThrow('effect failed');
    expect(await uow.asSystem((s) => s.paymentLedger.recordEvent('evt_rolled_back', 'test'))).toBe(true);
  });

  it('when a customer id is remembered twice or for another user, then the first row stays', async () => {
    await uow.asSystem((s) => s.paymentCustomers.remember(alice.id, 'cus_other'));
    await uow.asSystem((s) => s.paymentCustomers.remember(bob.id, 'cus_alice'));
    expect(await uow.asUser(alice.id, (s) => s.paymentCustomers.mine())).toBe('cus_alice');
    expect(await uow.asUser(bob.id, (s) => s.paymentCustomers.mine())).toBeNull();
    expect(await uow.asSystem((s) => s.paymentCustomers.userOf('cus_alice'))).toBe(alice.id);
  });
});
