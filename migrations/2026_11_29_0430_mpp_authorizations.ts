import { sql, type Kysely } from 'kysely';

/**
 * EIP-3009 payments at the gateway (decision 0430): each `transferWithAuthorization` a payer signed
 * (x402's `PAYMENT-SIGNATURE`, MPP's `evm` authorization), known by EIP-3009's own one-use key
 * (token, payer, nonce), bound to the one call it pays for (plugin, price, body digest) as an MPP
 * payment's transaction hash is, and the settlement the service signed for it. The intent is
 * recorded (`claimed`) before anything is signed, the signed bytes (`submitted`) before they are
 * broadcast: a crash at any point leaves a row that the same payment, presented again, resumes.
 * A settler nonce holds one settlement (unique): processes that race for one are refused, not mined twice.
 *
 * `mpp_settler_leases`: one row per settler account while one process sends from it (nonce to
 * broadcast), with an expiry so a process that dies holding it delays the next by its lease only.
 *
 * Grants: only app_system (the gateway acts before any user is known); app_user gets nothing.
 * Nothing is deleted but a claim nothing was signed for, and a lease.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE mpp_authorizations (
    token text NOT NULL CHECK (token ~ '^0x[0-9a-f]{40}$'),
    payer text NOT NULL CHECK (payer ~ '^0x[0-9a-f]{40}$'),
    nonce text NOT NULL CHECK (nonce ~ '^0x[0-9a-f]{64}$'),
    recipient text NOT NULL,
    value numeric(78, 0) NOT NULL,
    valid_after numeric(78, 0) NOT NULL,
    valid_before numeric(78, 0) NOT NULL,
    signature text NOT NULL,
    plugin text NOT NULL,
    -- the price the call was paid at, base units
    amount numeric(78, 0) NOT NULL CHECK (amount > 0),
    body_digest bytea NOT NULL CHECK (octet_length(body_digest) = 32),
    status text NOT NULL DEFAULT 'claimed'
      CHECK (status IN ('claimed', 'submitted', 'settled', 'served', 'failed', 'retrying', 'reverted')),
    claim_token uuid,
    claimed_at timestamptz NOT NULL,
    settler text,
    settler_nonce integer,
    tx_hash text UNIQUE CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
    raw_tx text,
    attempts int NOT NULL DEFAULT 1 CHECK (attempts BETWEEN 1 AND 2),
    failure text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (token, payer, nonce),
    CHECK (status IN ('claimed', 'reverted') OR (settler IS NOT NULL AND settler_nonce IS NOT NULL AND tx_hash IS NOT NULL AND raw_tx IS NOT NULL))
  );
  CREATE UNIQUE INDEX mpp_authorizations_settler_nonce ON mpp_authorizations (settler, settler_nonce) WHERE settler_nonce IS NOT NULL;
  CREATE INDEX mpp_authorizations_submitted ON mpp_authorizations (settler, settler_nonce) WHERE status = 'submitted';

  CREATE TABLE mpp_settler_leases (
    settler text PRIMARY KEY,
    holder uuid NOT NULL,
    expires_at timestamptz NOT NULL
  );

  ALTER TABLE mpp_authorizations ENABLE ROW LEVEL SECURITY;
  ALTER TABLE mpp_settler_leases ENABLE ROW LEVEL SECURITY;
  GRANT SELECT, INSERT, DELETE ON mpp_authorizations TO app_system;
  GRANT UPDATE (status, claim_token, claimed_at, settler, settler_nonce, tx_hash, raw_tx, attempts, failure, updated_at, signature, valid_after, valid_before, value, recipient, plugin, amount, body_digest)
    ON mpp_authorizations TO app_system;
  CREATE POLICY mpp_authorizations_system ON mpp_authorizations TO app_system USING (true) WITH CHECK (true);
  -- only a claim nothing was signed for may go
  CREATE POLICY mpp_authorizations_release_only_unsigned ON mpp_authorizations AS RESTRICTIVE FOR DELETE TO app_system
    USING (status = 'claimed' AND tx_hash IS NULL);
  GRANT SELECT, INSERT, UPDATE, DELETE ON mpp_settler_leases TO app_system;
  CREATE POLICY mpp_settler_leases_system ON mpp_settler_leases TO app_system USING (true) WITH CHECK (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE mpp_settler_leases, mpp_authorizations`.execute(db);
}
