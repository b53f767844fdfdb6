import { sql, type Kysely } from 'kysely';

/**
 * Accounts, sessions, API keys, single-use mail tokens and the outbox.
 *
 * Policies read the acting user with nullif(current_setting('app.user_id', true), ''): an unset
 * or empty setting yields NULL, which equals nothing, so a query outside a unit of work sees no row.
 * app_system gets grants only on what work before the user is known needs.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE users (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email citext NOT NULL UNIQUE,
    name text NOT NULL,
    password_hash text,
    email_verified_at timestamptz,
    credits integer NOT NULL DEFAULT 0 CHECK (credits >= 0),
    referral_code text NOT NULL UNIQUE,
    referred_by uuid REFERENCES users (id) ON DELETE SET NULL,
    notifications jsonb NOT NULL DEFAULT '{}'::jsonb,
    two_factor_enabled boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  );

  CREATE TABLE sessions (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash bytea NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
  );
  CREATE INDEX sessions_user_id_idx ON sessions (user_id);

  CREATE TABLE api_keys (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
    lookup_id text NOT NULL UNIQUE,
    key_hash text NOT NULL,
    preview text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz
  );
  CREATE INDEX api_keys_user_id_idx ON api_keys (user_id, created_at);

  CREATE TABLE email_verifications (
    token_hash bytea PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email citext NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  );

  CREATE TABLE password_resets (
    token_hash bytea PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  );

  -- Events and mail written in the same transaction as the change that caused them.
  CREATE TABLE outbox (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id uuid,
    topic text NOT NULL,
    payload jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    delivered_at timestamptz
  );
  CREATE INDEX outbox_undelivered_idx ON outbox (id) WHERE delivered_at IS NULL;

  ALTER TABLE users ENABLE ROW LEVEL SECURITY;
  ALTER TABLE sessions ENABLE ROW LEVEL SECURITY;
  ALTER TABLE api_keys ENABLE ROW LEVEL SECURITY;
  ALTER TABLE email_verifications ENABLE ROW LEVEL SECURITY;
  ALTER TABLE password_resets ENABLE ROW LEVEL SECURITY;
  ALTER TABLE outbox ENABLE ROW LEVEL SECURITY;

  GRANT SELECT, UPDATE, DELETE ON users TO app_user;
  CREATE POLICY users_own ON users TO app_user USING (id = ${ME}) WITH CHECK (id = ${ME});
  GRANT SELECT, DELETE ON sessions TO app_user;
  CREATE POLICY sessions_own ON sessions TO app_user USING (user_id = ${ME});
  GRANT SELECT, INSERT, UPDATE, DELETE ON api_keys TO app_user;
  CREATE POLICY api_keys_own ON api_keys TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});
  GRANT INSERT ON outbox TO app_user;
  CREATE POLICY outbox_own ON outbox TO app_user WITH CHECK (user_id = ${ME});

  GRANT SELECT, INSERT, UPDATE ON users TO app_system;
  GRANT SELECT, INSERT, UPDATE, DELETE ON sessions TO app_system;
  GRANT SELECT, UPDATE (last_used_at) ON api_keys TO app_system;
  GRANT SELECT, INSERT, UPDATE ON email_verifications, password_resets TO app_system;
  GRANT INSERT ON outbox TO app_system;
  CREATE POLICY users_system ON users TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY sessions_system ON sessions TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY api_keys_system ON api_keys TO app_system USING (true);
  CREATE POLICY email_verifications_system ON email_verifications TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY password_resets_system ON password_resets TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY outbox_system ON outbox TO app_system WITH CHECK (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE outbox, password_resets, email_verifications, api_keys, sessions, users`.execute(db);
}
