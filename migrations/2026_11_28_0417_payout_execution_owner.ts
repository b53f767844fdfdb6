import { sql, type Kysely } from 'kysely';

/**
 * A payout names its instant-split execution by (id, owner), as every other owned reference does
 * (agents' rows by (agent_id, user_id)): a user can no longer record a payout under another user's
 * execution, whose id alone the old single-column reference accepted (docs/decisions/0417).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE skill_split_executions ADD CONSTRAINT skill_split_executions_id_user_id_key UNIQUE (id, user_id);
  ALTER TABLE wallet_payouts DROP CONSTRAINT wallet_payouts_execution_id_fkey;
  ALTER TABLE wallet_payouts ADD CONSTRAINT wallet_payouts_execution_owner_fkey
    FOREIGN KEY (execution_id, user_id) REFERENCES skill_split_executions (id, user_id) ON DELETE CASCADE;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE wallet_payouts DROP CONSTRAINT wallet_payouts_execution_owner_fkey;
  ALTER TABLE wallet_payouts ADD CONSTRAINT wallet_payouts_execution_id_fkey FOREIGN KEY (execution_id) REFERENCES skill_split_executions (id) ON DELETE CASCADE;
  ALTER TABLE skill_split_executions DROP CONSTRAINT skill_split_executions_id_user_id_key;
  `,
    )
    .execute(db);
}
