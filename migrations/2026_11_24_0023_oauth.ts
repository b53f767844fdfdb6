import { sql, type Kysely } from 'kysely';

/**
 * OAuth sign-in (issue 11): the flows under way and the identities they found.
 *
 * - `oauth_flows`: one row per GET /api/auth/<provider>, keyed by the SHA-256 of its state (the
 *   state itself lives only in the browser's cookie). The callback consumes the row with one
 *   conditional UPDATE, so a replayed callback (same state, same code) finds nothing.
 * - `oauth_identities`: (provider, subject) → user, so the next sign-in finds the account by the
 *   provider's stable subject even after the e-mail changed on either side.
 *
 * - A password reset proves the mailbox: it unlinks the identities whose provider never vouched
 *   for the address (an account pre-made through an unverified e-mail is not kept by its maker).
 *
 * Only app_system touches them (sign-in runs before the user is known); app_user may read its own
 * identities. The account's deletion cascades.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE oauth_flows (
    state_hash bytea PRIMARY KEY,
    provider text NOT NULL CHECK (provider IN ('codehost', 'idp')),
    code_verifier text NOT NULL,
    nonce text,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  );
  CREATE INDEX oauth_flows_expires_idx ON oauth_flows (expires_at);

  CREATE TABLE oauth_identities (
    provider text NOT NULL CHECK (provider IN ('codehost', 'idp')),
    subject text NOT NULL CHECK (char_length(subject) BETWEEN 1 AND 255),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email citext,
    -- whether the provider vouched for that address; a password reset unlinks identities that it did not
    email_verified boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_sign_in_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (provider, subject)
  );
  CREATE INDEX oauth_identities_user_idx ON oauth_identities (user_id);

  ALTER TABLE oauth_flows ENABLE ROW LEVEL SECURITY;
  ALTER TABLE oauth_identities ENABLE ROW LEVEL SECURITY;

  GRANT SELECT ON oauth_identities TO app_user;
  CREATE POLICY oauth_identities_own ON oauth_identities TO app_user USING (user_id = ${ME});

  GRANT SELECT, INSERT, DELETE ON oauth_flows, oauth_identities TO app_system;
  GRANT UPDATE (used_at) ON oauth_flows TO app_system;
  GRANT UPDATE (email, email_verified, last_sign_in_at) ON oauth_identities TO app_system;
  CREATE POLICY oauth_flows_system ON oauth_flows TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY oauth_identities_system ON oauth_identities TO app_system USING (true) WITH CHECK (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE oauth_identities, oauth_flows`.execute(db);
}
