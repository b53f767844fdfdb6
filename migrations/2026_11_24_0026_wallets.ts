import { sql, type Kysely } from 'kysely';

/**
 * Wallets (issue 11; spec "Wallet (user wallet)" and "Wallets"): at most one per user, whichever
 * route created it (POST /api/wallet `create`, /api/wallet/create, /api/wallet/hosted). The local
 * custody adapter holds the private key sealed with the secret box (AES-256-GCM, the context binds
 * user and address); a remote hosted-wallet provider would keep the key itself, so the sealed
 * columns are null for its rows and `provider_wallet_id` names the wallet there.
 *
 * app_user reads and creates its own row only (RLS). It may read the sealed key because signing
 * runs as the owner; nothing ever returns it past the custody adapter. No update or delete grant:
 * a wallet is never replaced (a second create is refused), and it goes with the account (cascade).
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE wallets (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    address text NOT NULL UNIQUE CHECK (address ~ '^0x[0-9a-f]{40}$'),
    provider text NOT NULL CHECK (char_length(provider) BETWEEN 1 AND 64),
    provider_wallet_id text,
    source text NOT NULL CHECK (source IN ('generated', 'imported')),
    label text CHECK (char_length(label) <= 320),
    key_id text,
    sealed_key bytea,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((key_id IS NULL) = (sealed_key IS NULL))
  );

  ALTER TABLE wallets ENABLE ROW LEVEL SECURITY;
  GRANT SELECT, INSERT ON wallets TO app_user;
  CREATE POLICY wallets_own ON wallets TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE wallets`.execute(db);
}
