import { sql, type Kysely } from 'kysely';

/**
 * Agent memory (issue 9; spec "Agent memory", CONTRACT.md section 7 "memory value size"): a map of
 * key to any JSON value per agent. One row per agent and key; the limits (value bytes, keys per
 * request, keys per agent, key length) are the domain's (src/domain/memory), the key length is
 * repeated here as the last line of defence.
 *
 * Grants are the narrowest that work:
 * - app_user reads and writes (insert, replace the value) its own agents' memory; it never
 *   deletes a key (no endpoint does; the agent's or the account's deletion cascades).
 * - app_system reads it (the runtime's prompt is built by the worker) and deletes it
 *   (`reset-memory` runs in the worker that owns the instance); it never writes a value.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE agent_memory (
    agent_id uuid NOT NULL,
    user_id uuid NOT NULL,
    key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 256),
    value jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (agent_id, key),
    FOREIGN KEY (agent_id, user_id) REFERENCES agents (id, user_id) ON DELETE CASCADE
  );
  CREATE INDEX agent_memory_user_idx ON agent_memory (user_id);

  ALTER TABLE agent_memory ENABLE ROW LEVEL SECURITY;
  GRANT SELECT, INSERT ON agent_memory TO app_user;
  GRANT UPDATE (value, updated_at) ON agent_memory TO app_user;
  CREATE POLICY agent_memory_own ON agent_memory TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});

  GRANT SELECT, DELETE ON agent_memory TO app_system;
  CREATE POLICY agent_memory_system ON agent_memory TO app_system USING (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE agent_memory`.execute(db);
}
