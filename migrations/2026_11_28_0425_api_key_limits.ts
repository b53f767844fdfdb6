import { sql, type Kysely } from 'kysely';

/**
 * Limits an owner sets on an API key they hand out (decision 0425): a daily cap on the units the
 * key may spend inside the owner's own (`daily_units`), the models it may call (`models`; agents
 * as `agent/<id>`), when it stops working (`expires_at`) and how many requests a minute it may
 * make (`rate_limit`). Null: no such limit.
 *
 * A key's units are counted per UTC day in `api_key_usage`, moved by the meter's own statements:
 * the reserve statement takes them with the owner's (and refuses both when the key's cap would be
 * passed), and closing a reservation moves them by exactly what it moves the owner's. A
 * reservation remembers the key it was taken under (`usage_reservations.key_id`; no foreign key:
 * a reservation outlives a deleted key, and still settles for its owner).
 *
 * Grants: app_user reads its own keys' counters; app_system (the meter) creates a day's row and
 * moves `used_units`; the retention job deletes old days with the owners' `daily_usage`.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE api_keys
    ADD COLUMN daily_units integer CHECK (daily_units > 0),
    ADD COLUMN models text[] CHECK (cardinality(models) > 0),
    ADD COLUMN expires_at timestamptz,
    ADD COLUMN rate_limit integer CHECK (rate_limit > 0);

  CREATE TABLE api_key_usage (
    key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    day date NOT NULL,
    -- the key's owner, for row-level security (the key's deletion removes its rows)
    user_id uuid NOT NULL,
    used_units integer NOT NULL DEFAULT 0 CHECK (used_units >= 0),
    PRIMARY KEY (key_id, day)
  );
  ALTER TABLE api_key_usage ENABLE ROW LEVEL SECURITY;
  GRANT SELECT ON api_key_usage TO app_user;
  CREATE POLICY api_key_usage_own ON api_key_usage TO app_user USING (user_id = ${ME});
  GRANT SELECT, INSERT, DELETE ON api_key_usage TO app_system;
  GRANT UPDATE (used_units) ON api_key_usage TO app_system;
  CREATE POLICY api_key_usage_system ON api_key_usage TO app_system USING (true) WITH CHECK (true);

  -- the key a reservation was taken under: its closing moves that key's day counter too
  ALTER TABLE usage_reservations ADD COLUMN key_id uuid;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE usage_reservations DROP COLUMN key_id;
  DROP TABLE api_key_usage;
  ALTER TABLE api_keys DROP COLUMN daily_units, DROP COLUMN models, DROP COLUMN expires_at, DROP COLUMN rate_limit;
  `,
    )
    .execute(db);
}
