import { sql, type Kysely } from 'kysely';

/**
 * Agents (issue 8): the user's instance, the agents it hosts, what happened to them (append-only
 * events) and their messages. Status and kind lists are spelled out here on purpose: a migration
 * never imports application code.
 *
 * Grants are the narrowest that work:
 * - app_user reads its own rows; it inserts its own agents, only as `provisioning` and without
 *   the verification columns, and changes only an agent's config; it appends and reads its own events and messages, never changes or deletes
 *   them. It reads its instance without the gateway token's columns (sealed copy and hash).
 * - app_system (the provision job, later the runtime's replies and the token lookup) reads
 *   everything, creates and updates instances, changes only an agent's status, and appends
 *   events and messages. Nobody but the owner role deletes (account deletion cascades).
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;
const STATUSES = `('provisioning', 'running', 'error', 'stopped')`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  -- One per user: the runtime that hosts all of the user's agents.
  CREATE TABLE instances (
    user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    status text NOT NULL CHECK (status IN ${STATUSES}),
    started_at timestamptz,
    subdomain text NOT NULL UNIQUE,
    url text NOT NULL,
    plan text NOT NULL,
    runtime_version text NOT NULL,
    -- the gateway token: sealed (AES-256-GCM, key id alongside) and its sha256 for lookup
    gateway_token_key_id text NOT NULL,
    gateway_token_sealed bytea NOT NULL,
    gateway_token_hash bytea NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  );

  CREATE TABLE agents (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
    model text NOT NULL CHECK (char_length(model) BETWEEN 1 AND 200),
    -- the provisioning tier named at provisioning: recorded only, never a limit
    tier text CHECK (tier IN ('starter', 'pro', 'enterprise')),
    status text NOT NULL CHECK (status IN ${STATUSES}),
    config jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(config) = 'object'),
    verified boolean NOT NULL DEFAULT false,
    verification_type text CHECK (verification_type IN ('eas', 'walletprovider', 'ens', 'webauthn')),
    attestation_uid text,
    verifier_address text,
    verified_at timestamptz,
    metadata jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    -- events and messages name (agent, owner) together, so their owner is always the agent's
    UNIQUE (id, user_id)
  );
  CREATE INDEX agents_user_id_idx ON agents (user_id, created_at, id);

  CREATE TABLE agent_events (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    agent_id uuid NOT NULL,
    user_id uuid NOT NULL,
    kind text NOT NULL CHECK (kind IN
      ('provisioned', 'provision_failed', 'started', 'stopped', 'crashed', 'repaired', 'message_answered', 'message_failed')),
    duration_ms integer CHECK (duration_ms >= 0),
    reason text,
    at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (agent_id, user_id) REFERENCES agents (id, user_id) ON DELETE CASCADE
  );
  CREATE INDEX agent_events_agent_idx ON agent_events (agent_id, at);
  CREATE INDEX agent_events_user_idx ON agent_events (user_id, at);

  CREATE TABLE agent_messages (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    agent_id uuid NOT NULL,
    user_id uuid NOT NULL,
    role text NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
    content text NOT NULL,
    channel text NOT NULL DEFAULT 'web' CHECK (char_length(channel) BETWEEN 1 AND 32),
    session_id uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (agent_id, user_id) REFERENCES agents (id, user_id) ON DELETE CASCADE
  );
  -- the history is listed newest first, a page at a time
  CREATE INDEX agent_messages_agent_idx ON agent_messages (agent_id, created_at DESC, id DESC);
  CREATE INDEX agent_messages_session_idx ON agent_messages (session_id, created_at) WHERE session_id IS NOT NULL;

  ALTER TABLE instances ENABLE ROW LEVEL SECURITY;
  ALTER TABLE agents ENABLE ROW LEVEL SECURITY;
  ALTER TABLE agent_events ENABLE ROW LEVEL SECURITY;
  ALTER TABLE agent_messages ENABLE ROW LEVEL SECURITY;

  GRANT SELECT (user_id, status, started_at, subdomain, url, plan, runtime_version, created_at, updated_at) ON instances TO app_user;
  CREATE POLICY instances_own ON instances TO app_user USING (user_id = ${ME});
  -- a user creates agents only as provisioning and never sets the verification columns or the status later
  GRANT SELECT ON agents TO app_user;
  GRANT INSERT (user_id, name, model, tier, status, config) ON agents TO app_user;
  GRANT UPDATE (config, updated_at) ON agents TO app_user;
  CREATE POLICY agents_own_select ON agents FOR SELECT TO app_user USING (user_id = ${ME});
  CREATE POLICY agents_own_insert ON agents FOR INSERT TO app_user WITH CHECK (user_id = ${ME} AND status = 'provisioning');
  CREATE POLICY agents_own_update ON agents FOR UPDATE TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});
  GRANT SELECT, INSERT ON agent_events, agent_messages TO app_user;
  CREATE POLICY agent_events_own ON agent_events TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});
  CREATE POLICY agent_messages_own ON agent_messages TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});

  GRANT SELECT, INSERT, UPDATE ON instances TO app_system;
  GRANT SELECT ON agents TO app_system;
  GRANT UPDATE (status, updated_at) ON agents TO app_system;
  GRANT SELECT, INSERT ON agent_events, agent_messages TO app_system;
  CREATE POLICY instances_system ON instances TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY agents_system ON agents TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY agent_events_system ON agent_events TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY agent_messages_system ON agent_messages TO app_system USING (true) WITH CHECK (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE agent_messages, agent_events, agents, instances`.execute(db);
}
