import { sql, type Kysely } from 'kysely';

/**
 * Social identity sign-in (issue 11): the fid a user signed in with, and the refresh-token families
 * of social sessions (CONTRACT.md section 7 "social session").
 *
 * A family is one sign-in: it names its current session (a row of `sessions`, so the session is a
 * credential like any other) and owns the chain of refresh tokens rotated from it. Used tokens are
 * kept, so presenting one again is recognised as reuse and revokes the family. When the family's
 * session is deleted (sign-out, password change, reset, account deletion) `session_id` becomes
 * NULL and the family can no longer refresh.
 *
 * Grants are the narrowest that work: only the system unit of work touches these tables (the
 * user is not known before the token is checked); app_user gets nothing. Nobody but the owner
 * role deletes (the account's deletion cascades).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE social_identities (
    fid bigint PRIMARY KEY CHECK (fid > 0),
    user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now()
  );

  CREATE TABLE social_session_families (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id uuid REFERENCES sessions (id) ON DELETE SET NULL,
    revoked_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX social_session_families_user_idx ON social_session_families (user_id);
  CREATE INDEX social_session_families_session_idx ON social_session_families (session_id);

  CREATE TABLE social_refresh_tokens (
    token_hash bytea PRIMARY KEY,
    family_id uuid NOT NULL REFERENCES social_session_families (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX social_refresh_tokens_family_idx ON social_refresh_tokens (family_id);

  ALTER TABLE social_identities ENABLE ROW LEVEL SECURITY;
  ALTER TABLE social_session_families ENABLE ROW LEVEL SECURITY;
  ALTER TABLE social_refresh_tokens ENABLE ROW LEVEL SECURITY;

  GRANT SELECT, INSERT ON social_identities TO app_system;
  GRANT SELECT, INSERT ON social_session_families, social_refresh_tokens TO app_system;
  -- rotation moves the family to its new session, revocation ends it; a token is only ever marked used
  GRANT UPDATE (session_id, revoked_at) ON social_session_families TO app_system;
  GRANT UPDATE (used_at) ON social_refresh_tokens TO app_system;
  CREATE POLICY social_identities_system ON social_identities TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY social_session_families_system ON social_session_families TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY social_refresh_tokens_system ON social_refresh_tokens TO app_system USING (true) WITH CHECK (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE social_refresh_tokens, social_session_families, social_identities`.execute(db);
}
