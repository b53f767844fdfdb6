import { sql, type Kysely } from 'kysely';

/**
 * POST /api/provision (issue 8): one row per call, linked to the agent it made. The channel
 * tokens and the AI provider key are sealed (AES-256-GCM, key id alongside, authenticated data
 * binding the owner and the field); the live stream's key is kept only as its sha256.
 *
 * Grants: app_user inserts its own rows and reads only the columns that hold no secret (no
 * sealed token, no key, no stream-key hash); app_system has nothing yet (the channel connectors
 * that will read the tokens do not exist). Nobody but the owner role deletes (account deletion
 * cascades).
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE channel_provisionings (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL,
    agent_id uuid NOT NULL,
    plan text NOT NULL CHECK (plan IN ('label', 'solo', 'collective', 'network')),
    ai_provider text NOT NULL CHECK (ai_provider IN ('openrouter', 'openai', 'anthropic', 'google', 'ollama')),
    channel_user_id_a text CHECK (char_length(channel_user_id_a) <= 200),
    channel_token_a_key_id text,
    channel_token_a_sealed bytea,
    channel_token_b_key_id text,
    channel_token_b_sealed bytea,
    channel_token_c_key_id text,
    channel_token_c_sealed bytea,
    api_key_key_id text,
    api_key_sealed bytea,
    live_stream_id text NOT NULL UNIQUE,
    stream_key_hash bytea NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (agent_id, user_id) REFERENCES agents (id, user_id) ON DELETE CASCADE,
    CHECK ((channel_token_a_sealed IS NULL) = (channel_token_a_key_id IS NULL)),
    CHECK ((channel_token_b_sealed IS NULL) = (channel_token_b_key_id IS NULL)),
    CHECK ((channel_token_c_sealed IS NULL) = (channel_token_c_key_id IS NULL)),
    CHECK ((api_key_sealed IS NULL) = (api_key_key_id IS NULL)),
    CHECK (num_nonnulls(channel_token_a_sealed, channel_token_b_sealed, channel_token_c_sealed) >= 1)
  );
  CREATE INDEX channel_provisionings_user_idx ON channel_provisionings (user_id, created_at);

  ALTER TABLE channel_provisionings ENABLE ROW LEVEL SECURITY;
  GRANT INSERT ON channel_provisionings TO app_user;
  GRANT SELECT (id, user_id, agent_id, plan, ai_provider, channel_user_id_a, live_stream_id, created_at) ON channel_provisionings TO app_user;
  CREATE POLICY channel_provisionings_own ON channel_provisionings TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE channel_provisionings`.execute(db);
}
