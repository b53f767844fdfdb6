import { sql, type Kysely } from 'kysely';

/**
 * Agent verification (issue 9): one current record per agent, in its own table, replacing the
 * verification columns 0008 put on `agents` (nothing could write those: no role was granted
 * them). A row means verified; no row means not. The owner reads, records (an upsert) and clears
 * its agents' records; the system role only reads them (agent reads join them).
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE agent_verifications (
    agent_id uuid PRIMARY KEY,
    user_id uuid NOT NULL,
    verification_type text NOT NULL CHECK (verification_type IN ('eas', 'walletprovider', 'ens', 'webauthn')),
    attestation_uid text CHECK (attestation_uid ~ '^0x[0-9a-f]{64}$'),
    verifier_address text CHECK (verifier_address ~ '^0x[0-9a-f]{40}$'),
    metadata jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(metadata) = 'object'),
    verified_at timestamptz NOT NULL DEFAULT now(),
    -- an eas record names its attestation; the others never do
    CHECK ((verification_type = 'eas') = (attestation_uid IS NOT NULL)),
    FOREIGN KEY (agent_id, user_id) REFERENCES agents (id, user_id) ON DELETE CASCADE
  );
  CREATE INDEX agent_verifications_user_idx ON agent_verifications (user_id);

  ALTER TABLE agents
    DROP COLUMN verified,
    DROP COLUMN verification_type,
    DROP COLUMN attestation_uid,
    DROP COLUMN verifier_address,
    DROP COLUMN verified_at,
    DROP COLUMN metadata;

  ALTER TABLE agent_verifications ENABLE ROW LEVEL SECURITY;
  GRANT SELECT, INSERT, DELETE ON agent_verifications TO app_user;
  GRANT UPDATE (verification_type, attestation_uid, verifier_address, metadata, verified_at) ON agent_verifications TO app_user;
  CREATE POLICY agent_verifications_own ON agent_verifications TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});
  GRANT SELECT ON agent_verifications TO app_system;
  CREATE POLICY agent_verifications_system ON agent_verifications FOR SELECT TO app_system USING (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE agents
    ADD COLUMN verified boolean NOT NULL DEFAULT false,
    ADD COLUMN verification_type text CHECK (verification_type IN ('eas', 'walletprovider', 'ens', 'webauthn')),
    ADD COLUMN attestation_uid text,
    ADD COLUMN verifier_address text,
    ADD COLUMN verified_at timestamptz,
    ADD COLUMN metadata jsonb;
  DROP TABLE agent_verifications;
  `,
    )
    .execute(db);
}
