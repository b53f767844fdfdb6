import { sql, type Kysely } from 'kysely';

/**
 * Heartbeats (issue 9; spec "Heartbeat settings"): per user, how often their running agents get a
 * heartbeat message through the mailbox. No row means the defaults (src/domain/heartbeat); DELETE
 * removes the row. `next_heartbeat` is null while disabled. A heartbeat that found an agent not
 * running is recorded as that agent's `heartbeat_skipped` event (the kind is added here).
 *
 * Grants are the narrowest that work:
 * - app_user reads, writes and deletes its own row; the scheduled run claims a due row as its
 *   owner (FOR UPDATE SKIP LOCKED, then moves `last_heartbeat` and `next_heartbeat` in the same
 *   transaction that queues the messages), so two runs never send one heartbeat twice.
 * - app_system only finds who is due: it reads `user_id`, `enabled` and `next_heartbeat`.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;
const KINDS_BEFORE = `'provisioned', 'provision_failed', 'started', 'stopped', 'crashed', 'repaired', 'message_answered', 'message_failed'`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE heartbeats (
    user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    frequency text NOT NULL CHECK (frequency ~ '^[1-9][0-9]{0,5}[mhd]$'),
    enabled boolean NOT NULL,
    last_heartbeat timestamptz,
    next_heartbeat timestamptz,
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    CHECK (enabled = (next_heartbeat IS NOT NULL))
  );
  CREATE INDEX heartbeats_due_idx ON heartbeats (next_heartbeat) WHERE enabled;

  ALTER TABLE agent_events DROP CONSTRAINT agent_events_kind_check;
  ALTER TABLE agent_events ADD CONSTRAINT agent_events_kind_check CHECK (kind IN (${KINDS_BEFORE}, 'heartbeat_skipped'));

  ALTER TABLE heartbeats ENABLE ROW LEVEL SECURITY;
  GRANT SELECT, INSERT, UPDATE, DELETE ON heartbeats TO app_user;
  CREATE POLICY heartbeats_own ON heartbeats TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});

  GRANT SELECT (user_id, enabled, next_heartbeat) ON heartbeats TO app_system;
  CREATE POLICY heartbeats_system ON heartbeats FOR SELECT TO app_system USING (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  DELETE FROM agent_events WHERE kind = 'heartbeat_skipped';
  ALTER TABLE agent_events DROP CONSTRAINT agent_events_kind_check;
  ALTER TABLE agent_events ADD CONSTRAINT agent_events_kind_check CHECK (kind IN (${KINDS_BEFORE}));
  DROP TABLE heartbeats;
  `,
    )
    .execute(db);
}
