import { sql, type Kysely } from 'kysely';

/**
 * Agents' MCP servers (decision 0440): remote MCP servers (streamable HTTP) an agent's model may
 * call tools of, through the service. One row per server of an agent, named uniquely per agent.
 *
 * - `headers_sealed` (with `headers_key_id`): the request headers as one JSON object sealed by
 *   the secret box (AES-GCM, the context naming the row), never readable in clear by SQL;
 *   `header_names` keeps their names only, for the console.
 * - `allowed_tools`: the allowlist the owner gave; null: every tool the server lists.
 * - `tools`: what the server listed at its last check (name, description, input schema);
 *   `status` that check's outcome (`ok`, or `error` with `status_error`), `checked_at` when.
 *
 * Grants: app_user reads and writes its own rows (RLS on user_id); app_system reads them (the
 * answer's tool offers, the tool calls through the service) and nothing else. The agent's removal
 * removes them (the foreign key cascades). The event kind `mcp_call` records each tool call on the
 * agent's timeline.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;
const KINDS_BEFORE = `'provisioned', 'provision_failed', 'started', 'stopped', 'crashed', 'repaired', 'message_answered', 'message_failed', 'heartbeat_skipped', 'heartbeat', 'skill_call'`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE agent_mcp_servers (
    id uuid PRIMARY KEY,
    agent_id uuid NOT NULL,
    user_id uuid NOT NULL,
    name text NOT NULL CHECK (name ~ '^[a-z0-9]([a-z0-9-]|_[a-z0-9-])*$' AND char_length(name) <= 32),
    url text NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2048),
    header_names text[] NOT NULL DEFAULT '{}',
    headers_key_id text,
    headers_sealed bytea,
    allowed_tools text[],
    tools jsonb NOT NULL DEFAULT '[]',
    status text NOT NULL CHECK (status IN ('ok', 'error')),
    status_error text,
    checked_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (agent_id, name),
    FOREIGN KEY (agent_id, user_id) REFERENCES agents (id, user_id) ON DELETE CASCADE,
    CHECK ((headers_key_id IS NULL) = (headers_sealed IS NULL))
  );
  CREATE INDEX agent_mcp_servers_user_idx ON agent_mcp_servers (user_id);
  ALTER TABLE agent_mcp_servers ENABLE ROW LEVEL SECURITY;
  GRANT SELECT, INSERT, DELETE ON agent_mcp_servers TO app_user;
  GRANT UPDATE (tools, status, status_error, checked_at) ON agent_mcp_servers TO app_user;
  CREATE POLICY agent_mcp_servers_own ON agent_mcp_servers TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});
  GRANT SELECT ON agent_mcp_servers TO app_system;
  CREATE POLICY agent_mcp_servers_system ON agent_mcp_servers FOR SELECT TO app_system USING (true);

  ALTER TABLE agent_events DROP CONSTRAINT agent_events_kind_check;
  ALTER TABLE agent_events ADD CONSTRAINT agent_events_kind_check CHECK (kind IN (${KINDS_BEFORE}, 'mcp_call'));
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  DELETE FROM agent_events WHERE kind = 'mcp_call';
  ALTER TABLE agent_events DROP CONSTRAINT agent_events_kind_check;
  ALTER TABLE agent_events ADD CONSTRAINT agent_events_kind_check CHECK (kind IN (${KINDS_BEFORE}));
  DROP TABLE agent_mcp_servers;
  `,
    )
    .execute(db);
}
