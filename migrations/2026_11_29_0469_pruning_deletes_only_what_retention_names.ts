import { sql, type Kysely } from 'kysely';

/**
 * The system role was granted DELETE on agent_mailbox and agent_events for the retention jobs
 * (decision 0466). Before that it could never delete either, and the agents' timeline relied on it.
 * These restrictive policies keep that promise for everything retention does not name: whatever
 * statement the system role runs, it deletes only answered mailbox rows and message events
 * (`message_answered`, `message_failed`); a crash, a start, an MCP call or a failed message's
 * mailbox row stays.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE POLICY agent_mailbox_system_prunes_answered ON agent_mailbox AS RESTRICTIVE FOR DELETE TO app_system
    USING (status = 'answered');
  CREATE POLICY agent_events_system_prunes_message_events ON agent_events AS RESTRICTIVE FOR DELETE TO app_system
    USING (kind IN ('message_answered', 'message_failed'));
`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  DROP POLICY agent_events_system_prunes_message_events ON agent_events;
  DROP POLICY agent_mailbox_system_prunes_answered ON agent_mailbox;
`,
    )
    .execute(db);
}
