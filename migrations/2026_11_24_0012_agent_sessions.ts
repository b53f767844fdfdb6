import { sql, type Kysely } from 'kysely';

/**
 * /api/agent (issue 8): conversation sessions of an agent, and the credentials a user sets for an
 * agent. A session is a thread of one agent; `agent_messages.session_id` (migration 0008) now
 * names one of the same agent's sessions (composite foreign key), or none.
 *
 * Grants are the narrowest that work:
 * - app_user reads and creates its own sessions (never changes or deletes them); it sets its own
 *   agents' credentials (insert, and replace the sealed value) and reads only their names and
 *   times: the sealed columns are not selectable by app_user at all.
 * - app_system gets nothing here: no system path reads sessions or credentials yet.
 * Nobody but the owner role deletes (the agent's or the account's deletion cascades).
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE agent_sessions (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    agent_id uuid NOT NULL,
    user_id uuid NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    FOREIGN KEY (agent_id, user_id) REFERENCES agents (id, user_id) ON DELETE CASCADE,
    UNIQUE (id, agent_id)
  );
  CREATE INDEX agent_sessions_agent_idx ON agent_sessions (agent_id, created_at DESC, id DESC);
  CREATE INDEX agent_sessions_user_idx ON agent_sessions (user_id, created_at DESC, id DESC);

  -- a message's session is a session of the same agent
  ALTER TABLE agent_messages
    ADD CONSTRAINT agent_messages_session_fk FOREIGN KEY (session_id, agent_id) REFERENCES agent_sessions (id, agent_id) ON DELETE CASCADE;

  CREATE TABLE agent_credentials (
    agent_id uuid NOT NULL,
    user_id uuid NOT NULL,
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
    -- AES-256-GCM under key \`key_id\`; authenticated data binds user, agent and name
    key_id text NOT NULL,
    sealed bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, name),
    FOREIGN KEY (agent_id, user_id) REFERENCES agents (id, user_id) ON DELETE CASCADE
  );

  ALTER TABLE agent_sessions ENABLE ROW LEVEL SECURITY;
  ALTER TABLE agent_credentials ENABLE ROW LEVEL SECURITY;

  GRANT SELECT, INSERT ON agent_sessions TO app_user;
  CREATE POLICY agent_sessions_own ON agent_sessions TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});

  GRANT SELECT (agent_id, user_id, name, created_at, updated_at) ON agent_credentials TO app_user;
  GRANT INSERT (agent_id, user_id, name, key_id, sealed) ON agent_credentials TO app_user;
  GRANT UPDATE (key_id, sealed, updated_at) ON agent_credentials TO app_user;
  CREATE POLICY agent_credentials_own ON agent_credentials TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE agent_messages DROP CONSTRAINT agent_messages_session_fk`.execute(db);
  await sql`DROP TABLE agent_credentials, agent_sessions`.execute(db);
}
