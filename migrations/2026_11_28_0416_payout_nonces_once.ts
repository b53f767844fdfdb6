import { sql, type Kysely } from 'kysely';

/**
 * A wallet's nonces are handed out by the database (docs/decisions/0416): a payout is recorded
 * `submitted` at a nonce no other recorded payout of the same wallet holds, so sends from one wallet
 * need no lock across their node calls. A run that loses the race signs again at the next nonce
 * (nothing of it was broadcast). Earlier statuses never cleared a nonce a transfer still held, so no
 * two recorded rows share one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE UNIQUE INDEX wallet_payouts_nonce_once ON wallet_payouts (from_address, nonce) WHERE nonce IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX wallet_payouts_nonce_once`.execute(db);
}
