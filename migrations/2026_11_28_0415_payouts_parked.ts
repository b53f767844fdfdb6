import { sql, type Kysely } from 'kysely';

/**
 * A submitted payout whose transaction has no receipt while the wallet's nonce count has passed its
 * nonce is parked for an operator (docs/decisions/0415): `parked_at` says since when. It is never
 * signed again automatically (a node that lags another may simply not show the receipt yet); its
 * hash stays, and every later check still confirms it once its receipt is seen.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE wallet_payouts ADD COLUMN parked_at timestamptz;
  GRANT UPDATE (parked_at) ON wallet_payouts TO app_user;
  CREATE INDEX wallet_payouts_parked_idx ON wallet_payouts (parked_at) WHERE parked_at IS NOT NULL AND status = 'submitted';
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE wallet_payouts DROP COLUMN parked_at`.execute(db);
}
