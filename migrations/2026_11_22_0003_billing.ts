import { sql, type Kysely } from 'kysely';

/**
 * Billing: processor customers, subscriptions, the webhook ledger, credit purchases, daily usage
 * and BYOK keys. Lists of plans, statuses and providers are spelled out here on purpose: a
 * migration never imports application code (it must keep meaning what it meant when it ran).
 *
 * Grants are the narrowest that work:
 * - app_user reads its own rows of every table, and writes only its own BYOK keys.
 * - app_system (webhook, metering) writes subscriptions, customers, credit purchases and the
 *   day's usage; it can only INSERT into the ledger and credit purchases (dedupe by key), and it
 *   has nothing at all on byok_keys.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  -- One processor customer per user, created once and reused by every checkout.
  CREATE TABLE payment_customers (
    user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    customer_id text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
  );

  -- Upserted by processor subscription id. user_id is NULL only while an event arrived before
  -- anything told us whose it is; descriptive columns are filled in by later events.
  CREATE TABLE subscriptions (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    processor_subscription_id text NOT NULL UNIQUE,
    user_id uuid REFERENCES users (id) ON DELETE CASCADE,
    customer_id text,
    kind text CHECK (kind IN ('subscription', 'storage')),
    catalog text,
    plan text,
    status text NOT NULL CHECK (status IN
      ('active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'incomplete_expired', 'paused', 'canceled')),
    current_period_end timestamptz,
    last_event_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((catalog IS NULL) = (plan IS NULL)),
    CHECK (catalog IS NULL
      OR (catalog = 'checkout' AND plan IN ('label', 'solo', 'collective', 'network'))
      OR (catalog = 'billing' AND plan IN ('starter', 'pro', 'scale')))
  );
  CREATE INDEX subscriptions_user_id_idx ON subscriptions (user_id);
  CREATE INDEX subscriptions_customer_id_idx ON subscriptions (customer_id);

  -- The webhook ledger: an event id is inserted in the transaction of its effect.
  CREATE TABLE processed_events (
    event_id text PRIMARY KEY,
    type text NOT NULL,
    processed_at timestamptz NOT NULL DEFAULT now()
  );

  -- Credits granted per checkout session: a second event for one session adds nothing.
  CREATE TABLE credit_purchases (
    session_id text PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    pack text NOT NULL CHECK (pack IN ('50', '200', '500')),
    credits integer NOT NULL CHECK (credits > 0),
    event_id text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX credit_purchases_user_id_idx ON credit_purchases (user_id, created_at);

  -- Units used per user per UTC day; a new day is a new row, which is the daily reset.
  CREATE TABLE daily_usage (
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day date NOT NULL,
    used_units integer NOT NULL DEFAULT 0 CHECK (used_units >= 0),
    PRIMARY KEY (user_id, day)
  );

  -- A user's own provider keys, sealed with AES-256-GCM under the key named by key_id.
  CREATE TABLE byok_keys (
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider text NOT NULL CHECK (provider IN ('openrouter', 'openai', 'anthropic', 'google')),
    key_id text NOT NULL,
    ciphertext bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, provider)
  );

  ALTER TABLE payment_customers ENABLE ROW LEVEL SECURITY;
  ALTER TABLE subscriptions ENABLE ROW LEVEL SECURITY;
  ALTER TABLE processed_events ENABLE ROW LEVEL SECURITY;
  ALTER TABLE credit_purchases ENABLE ROW LEVEL SECURITY;
  ALTER TABLE daily_usage ENABLE ROW LEVEL SECURITY;
  ALTER TABLE byok_keys ENABLE ROW LEVEL SECURITY;

  GRANT SELECT ON payment_customers, subscriptions, credit_purchases, daily_usage TO app_user;
  CREATE POLICY payment_customers_own ON payment_customers TO app_user USING (user_id = ${ME});
  CREATE POLICY subscriptions_own ON subscriptions TO app_user USING (user_id = ${ME});
  CREATE POLICY credit_purchases_own ON credit_purchases TO app_user USING (user_id = ${ME});
  CREATE POLICY daily_usage_own ON daily_usage TO app_user USING (user_id = ${ME});
  GRANT SELECT, INSERT, UPDATE, DELETE ON byok_keys TO app_user;
  CREATE POLICY byok_keys_own ON byok_keys TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});

  GRANT SELECT, INSERT ON payment_customers TO app_system;
  GRANT SELECT, INSERT, UPDATE ON subscriptions TO app_system;
  GRANT INSERT ON processed_events TO app_system;
  GRANT INSERT ON credit_purchases TO app_system;
  GRANT SELECT, INSERT, UPDATE ON daily_usage TO app_system;
  CREATE POLICY payment_customers_system ON payment_customers TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY subscriptions_system ON subscriptions TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY processed_events_system ON processed_events TO app_system WITH CHECK (true);
  CREATE POLICY credit_purchases_system ON credit_purchases TO app_system WITH CHECK (true);
  CREATE POLICY daily_usage_system ON daily_usage TO app_system USING (true) WITH CHECK (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE byok_keys, daily_usage, credit_purchases, processed_events, subscriptions, payment_customers`.execute(db);
}
