import { sql, type Kysely } from 'kysely';

/**
 * A payout is claimed in the database before anyone signs it (docs/decisions/0414): one
 * conditional UPDATE of a `pending` row sets `claim_token` (a fresh uuid) and `claimed_at`; only
 * the run holding the token may record its signed transaction (`submitted`), and only the bytes
 * recorded are ever broadcast. A claim older than the lease may be taken over (its run died between
 * claim and record); the recording is still conditional on the token, so two signers never both record.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE wallet_payouts ADD COLUMN claim_token uuid, ADD COLUMN claimed_at timestamptz;
  ALTER TABLE wallet_payouts ADD CONSTRAINT wallet_payouts_claim_whole CHECK ((claim_token IS NULL) = (claimed_at IS NULL));
  GRANT UPDATE (claim_token, claimed_at) ON wallet_payouts TO app_user;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE wallet_payouts DROP COLUMN claim_token, DROP COLUMN claimed_at`.execute(db);
}
