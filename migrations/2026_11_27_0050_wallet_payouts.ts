import { sql, type Kysely } from 'kysely';

/**
 * On-chain payouts as an outbox: one row per transfer a user's wallet is to make (a recipient of
 * an instant-split execution, or a usdc-payments send). The row is written in the transaction
 * that decides the payment (`pending`), a job sends it, and the signed transaction's hash is
 * recorded (`submitted`) before it is broadcast, so a retry finds the hash and checks it instead
 * of paying again. `confirmed` and `failed` (reverted, or refused before anything was broadcast)
 * are final.
 *
 * `idempotency_key` makes a send asked twice one transfer (unique per user); `request_hash`
 * tells a repeated request from another one reusing its key. app_user reads, creates and
 * advances its own rows only (RLS); amounts are token units (numeric, the token's smallest unit).
 * app_system reads only which payouts are unfinished and whose (the sweep that re-runs them as
 * their owner), never amounts, recipients or signed transactions.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE wallet_payouts (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    execution_id uuid REFERENCES skill_split_executions (id) ON DELETE CASCADE,
    position integer NOT NULL DEFAULT 0 CHECK (position >= 0),
    idempotency_key text CHECK (char_length(idempotency_key) BETWEEN 1 AND 200),
    request_hash text NOT NULL CHECK (char_length(request_hash) = 64),
    to_address text NOT NULL CHECK (to_address ~ '^0x[0-9a-f]{40}$'),
    amount numeric(78, 0) NOT NULL CHECK (amount > 0),
    amount_cents bigint CHECK (amount_cents > 0),
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'submitted', 'confirmed', 'failed')),
    from_address text CHECK (from_address ~ '^0x[0-9a-f]{40}$'),
    transaction_hash text CHECK (transaction_hash ~ '^0x[0-9a-f]{64}$'),
    nonce bigint CHECK (nonce >= 0),
    raw_transaction text,
    last_error text CHECK (char_length(last_error) <= 500),
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (user_id, idempotency_key),
    CHECK (status IN ('pending', 'failed') OR transaction_hash IS NOT NULL),
    CHECK ((transaction_hash IS NULL) = (raw_transaction IS NULL))
  );
  CREATE INDEX wallet_payouts_execution_idx ON wallet_payouts (execution_id, position) WHERE execution_id IS NOT NULL;
  CREATE INDEX wallet_payouts_request_idx ON wallet_payouts (user_id, request_hash, created_at);

  ALTER TABLE wallet_payouts ENABLE ROW LEVEL SECURITY;
  GRANT SELECT, INSERT ON wallet_payouts TO app_user;
  GRANT UPDATE (status, from_address, transaction_hash, nonce, raw_transaction, last_error, updated_at) ON wallet_payouts TO app_user;
  CREATE POLICY wallet_payouts_own ON wallet_payouts TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});
  GRANT SELECT (id, user_id, execution_id, position, status, created_at, updated_at) ON wallet_payouts TO app_system;
  CREATE POLICY wallet_payouts_system_read ON wallet_payouts FOR SELECT TO app_system USING (true);
  CREATE INDEX wallet_payouts_unfinished_idx ON wallet_payouts (updated_at) WHERE status IN ('pending', 'submitted');
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE wallet_payouts`.execute(db);
}
