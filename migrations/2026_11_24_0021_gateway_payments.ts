import { sql, type Kysely } from 'kysely';

/**
 * The gateway's MPP payments (issue 10): each 402 challenge issued, and each on-chain payment
 * that paid one. A challenge is single use and binds plugin, amount and the request body's
 * digest; a payment row consumes its challenge's nonce AND its transaction hash, each under a
 * unique constraint, so one transaction pays for one call however many requests race.
 *
 * Grants: only app_system (the gateway acts before any user is known); app_user gets nothing.
 * app_system may insert and read both tables and update only the fields that move (a challenge's
 * consumption, a payment's outcome). It may delete only expired challenges that paid for nothing
 * (the hourly purge: every anonymous 402 stores one); a payment row and its challenge stay.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE mpp_challenges (
    nonce text PRIMARY KEY CHECK (char_length(nonce) BETWEEN 16 AND 64),
    plugin text NOT NULL,
    -- base units of the token
    amount numeric(78, 0) NOT NULL CHECK (amount > 0),
    token text NOT NULL,
    recipient text NOT NULL,
    body_digest bytea NOT NULL CHECK (octet_length(body_digest) = 32),
    issued_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    consumed_at timestamptz
  );
  CREATE INDEX mpp_challenges_expires_idx ON mpp_challenges (expires_at);

  CREATE TABLE mpp_payments (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    challenge_nonce text NOT NULL UNIQUE REFERENCES mpp_challenges (nonce),
    tx_hash text NOT NULL UNIQUE CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
    payer text NOT NULL,
    amount numeric(78, 0) NOT NULL,
    plugin text NOT NULL,
    -- consumed: paid, the plugin is running; served: answered; failed: the plugin failed after
    -- payment (the same credential may retry once); retrying: that one retry is running
    status text NOT NULL DEFAULT 'consumed' CHECK (status IN ('consumed', 'served', 'failed', 'retrying')),
    attempts int NOT NULL DEFAULT 1 CHECK (attempts BETWEEN 1 AND 2),
    failure text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  );

  ALTER TABLE mpp_challenges ENABLE ROW LEVEL SECURITY;
  ALTER TABLE mpp_payments ENABLE ROW LEVEL SECURITY;

  GRANT SELECT, INSERT, DELETE ON mpp_challenges TO app_system;
  GRANT UPDATE (consumed_at) ON mpp_challenges TO app_system;
  GRANT SELECT, INSERT ON mpp_payments TO app_system;
  GRANT UPDATE (status, attempts, failure, updated_at) ON mpp_payments TO app_system;
  CREATE POLICY mpp_challenges_system ON mpp_challenges TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY mpp_payments_system ON mpp_payments TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY mpp_challenges_purge_only_expired ON mpp_challenges AS RESTRICTIVE FOR DELETE TO app_system
    USING (consumed_at IS NULL AND expires_at < now());
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE mpp_payments, mpp_challenges`.execute(db);
}
