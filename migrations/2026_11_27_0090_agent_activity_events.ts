import { sql, type Kysely } from 'kysely';

/**
 * An agent's timeline shows the heartbeats that were sent to it and the skill calls its model
 * made: both become agent events (`heartbeat`, `skill_call`). A skill call's event names the skill,
 * the action and whether it succeeded, never its arguments or results (they may hold secrets).
 * The grants stay as they were: both roles already append agent events.
 */
const KINDS_BEFORE = `'provisioned', 'provision_failed', 'started', 'stopped', 'crashed', 'repaired', 'message_answered', 'message_failed', 'heartbeat_skipped'`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE agent_events DROP CONSTRAINT agent_events_kind_check;
  ALTER TABLE agent_events ADD CONSTRAINT agent_events_kind_check CHECK (kind IN (${KINDS_BEFORE}, 'heartbeat', 'skill_call'));
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  DELETE FROM agent_events WHERE kind IN ('heartbeat', 'skill_call');
  ALTER TABLE agent_events DROP CONSTRAINT agent_events_kind_check;
  ALTER TABLE agent_events ADD CONSTRAINT agent_events_kind_check CHECK (kind IN (${KINDS_BEFORE}));
  `,
    )
    .execute(db);
}
