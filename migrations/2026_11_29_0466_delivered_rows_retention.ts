import { sql, type Kysely } from 'kysely';

/**
 * Retention of what every message adds besides the message itself (decision 0466):
 *
 * - agent_message_totals: per agent, the answered and failed messages and the answered ones'
 *   summed duration, of the message events pruned so far. An agent's all-time figures (its stats)
 *   are this row plus the events still kept, so pruning events changes no figure anyone reads.
 * - The pruning job (the system role) deletes answered mailbox rows and message events; it is
 *   granted DELETE on both tables. Failed mailbox rows are kept: a page of messages shows their
 *   failure code. Two partial indexes let the job read exactly the rows past retention, oldest
 *   first, whatever the tables' size.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE agent_message_totals (
    agent_id uuid PRIMARY KEY,
    user_id uuid NOT NULL,
    answered bigint NOT NULL DEFAULT 0 CHECK (answered >= 0),
    failed bigint NOT NULL DEFAULT 0 CHECK (failed >= 0),
    answered_ms bigint NOT NULL DEFAULT 0 CHECK (answered_ms >= 0),
    -- answered events that had a duration (the average's divisor)
    timed bigint NOT NULL DEFAULT 0 CHECK (timed >= 0),
    FOREIGN KEY (agent_id, user_id) REFERENCES agents (id, user_id) ON DELETE CASCADE
  );
  ALTER TABLE agent_message_totals ENABLE ROW LEVEL SECURITY;
  GRANT SELECT ON agent_message_totals TO app_user;
  CREATE POLICY agent_message_totals_own ON agent_message_totals TO app_user USING (user_id = ${ME});
  GRANT SELECT, INSERT, UPDATE ON agent_message_totals TO app_system;
  CREATE POLICY agent_message_totals_system ON agent_message_totals TO app_system USING (true) WITH CHECK (true);

  GRANT DELETE ON agent_mailbox, agent_events TO app_system;

  -- what the pruning reads, oldest first, as index ranges: the rows past retention and no others
  CREATE INDEX agent_mailbox_answered_idx ON agent_mailbox (finished_at) WHERE status = 'answered';
  CREATE INDEX agent_events_message_at_idx ON agent_events (at) WHERE kind IN ('message_answered', 'message_failed');
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `DROP INDEX agent_events_message_at_idx; DROP INDEX agent_mailbox_answered_idx;
       REVOKE DELETE ON agent_mailbox, agent_events FROM app_system; DROP TABLE agent_message_totals;`,
    )
    .execute(db);
}
