import { sql, type Kysely } from 'kysely';

/**
 * Wallet sign-in (SIWE, issue 11): the nonces handed out by GET /api/auth/nonce and the wallets
 * that sign in to an account.
 *
 * - A nonce is stored as its sha256 only (like every other single-use token); consuming it is one
 *   conditional UPDATE, so of two concurrent sign-ins with the same nonce exactly one wins.
 * - A wallet identity is one lowercase address bound to one user; it is what a later sign-in finds
 *   first, before the wallet-derived e-mail.
 *
 * Grants: both tables are used before the user is known, so by app_system only (nonces: issue,
 * consume, sweep the expired; identities: find, insert, touch). app_user may read its own
 * wallets (the profile may list them later), nothing more. Nobody but the owner role deletes an
 * identity; the user's deletion cascades.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE wallet_nonces (
    nonce_hash bytea PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  );
  CREATE INDEX wallet_nonces_expires_idx ON wallet_nonces (expires_at);

  CREATE TABLE wallet_identities (
    address text PRIMARY KEY CHECK (address ~ '^0x[0-9a-f]{40}$'),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    chain_id integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_sign_in_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX wallet_identities_user_idx ON wallet_identities (user_id);

  ALTER TABLE wallet_nonces ENABLE ROW LEVEL SECURITY;
  ALTER TABLE wallet_identities ENABLE ROW LEVEL SECURITY;

  GRANT SELECT ON wallet_identities TO app_user;
  CREATE POLICY wallet_identities_own ON wallet_identities TO app_user USING (user_id = ${ME});

  GRANT SELECT, INSERT, UPDATE, DELETE ON wallet_nonces TO app_system;
  CREATE POLICY wallet_nonces_system ON wallet_nonces TO app_system USING (true) WITH CHECK (true);
  GRANT SELECT, INSERT ON wallet_identities TO app_system;
  GRANT UPDATE (last_sign_in_at) ON wallet_identities TO app_system;
  CREATE POLICY wallet_identities_system ON wallet_identities TO app_system USING (true) WITH CHECK (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE wallet_identities, wallet_nonces`.execute(db);
}
