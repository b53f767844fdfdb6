import { sql, type Kysely } from 'kysely';

/**
 * Each claim of a mailbox message is named: `claim_id` (made by the claiming worker before its
 * claim statement, so a claim whose answer was lost in an outage can still be handed back by it)
 * and `claimed_by` (the worker's identity, the one its instance leases carry). Closing a message
 * (answered, failed, queued again) names the claim, so an attempt that was superseded (its worker
 * lost the lease, the message was queued again and claimed anew) writes nothing. A worker that
 * takes an instance over queues the previous worker's claims of it again at once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE agent_mailbox ADD COLUMN claim_id uuid, ADD COLUMN claimed_by text;
  CREATE INDEX agent_mailbox_working_claim_idx ON agent_mailbox (claim_id) WHERE status = 'working';
  CREATE INDEX agent_mailbox_working_user_idx ON agent_mailbox (user_id) WHERE status = 'working';
  GRANT UPDATE (claim_id, claimed_by) ON agent_mailbox TO app_system;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  REVOKE UPDATE (claim_id, claimed_by) ON agent_mailbox FROM app_system;
  DROP INDEX agent_mailbox_working_user_idx;
  DROP INDEX agent_mailbox_working_claim_idx;
  ALTER TABLE agent_mailbox DROP COLUMN claimed_by, DROP COLUMN claim_id;
  `,
    )
    .execute(db);
}
