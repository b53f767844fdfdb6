import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { sqlAsUser } from '../../support/sql-as-user.js';

/** wallet_payouts names its instant-split execution by (id, owner), as every other owned reference does. */
const { pools, uow } = await openTestPersistence();
const alice = await insertUser(uow);
const bob = await insertUser(uow);
const asUser = sqlAsUser(pools);

async function executionOf(userId: string): Promise<string> {
  const { rows } = await pools.owner.query<{ id: string }>(
    `with rule as (insert into skill_split_rules (user_id, splits, threshold_cents) values ($1, '[]', 0) returning id)
     insert into skill_split_executions (rule_id, user_id, amount_cents, allocations) select id, $1, 100, '[]' from rule returning id`,
    [userId],
  );
  return rows[0]!.id;
}

const payoutUnder = (executionId: string, userId: string) =>
  asUser(
    userId,
    `insert into wallet_payouts (user_id, execution_id, request_hash, to_address, amount) values ($1, $2, $3, $4, 1) returning id`,
    [userId, executionId, createHash('sha256').update(executionId).digest('hex'), `0x${'ab'.repeat(20)}`],
  );

describe('a payout and its execution', () => {
  it("when bob records a payout under alice's execution, then the (execution, owner) reference refuses it; under his own it is accepted", async () => {
    const alices = await executionOf(alice.id);
    await expect(payoutUnder(alices, bob.id)).rejects.toThrow(/foreign key/);
    expect((await payoutUnder(await executionOf(bob.id), bob.id)).rowCount).toBe(1);
  });
});
