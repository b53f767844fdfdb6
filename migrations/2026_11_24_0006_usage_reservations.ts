import { sql, type Kysely } from 'kysely';

/**
 * Stored usage reservations: the units held for one paid call between reserve and settle. The row
 * is inserted by the statement that takes the units and closed (settled or released) by the
 * statement that gives them back, so a crash between the two leaves a visible open row, which a
 * scheduled job releases once it is stale.
 *
 * Grants: app_system (the metering pool) inserts rows and may change only how a row is closed
 * (status, settled_units, closed_at), never its payer, day or units, and deletes nothing;
 * app_user only reads its own rows, so a user's unit of work can neither open nor close one.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE usage_reservations (
    id uuid PRIMARY KEY,
    payer uuid NOT NULL,
    -- the UTC day the units came from: a settlement lands on that day's row
    day date NOT NULL,
    units integer NOT NULL CHECK (units > 0),
    status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'settled', 'released')),
    settled_units integer CHECK (settled_units >= 0),
    created_at timestamptz NOT NULL,
    closed_at timestamptz,
    FOREIGN KEY (payer, day) REFERENCES daily_usage (user_id, day) ON DELETE CASCADE,
    CHECK ((status = 'open') = (closed_at IS NULL)),
    CHECK ((status = 'settled') = (settled_units IS NOT NULL))
  );
  -- the stale sweep reads only open rows, oldest first
  CREATE INDEX usage_reservations_open_idx ON usage_reservations (created_at) WHERE status = 'open';
  CREATE INDEX usage_reservations_payer_idx ON usage_reservations (payer, day);

  ALTER TABLE usage_reservations ENABLE ROW LEVEL SECURITY;

  GRANT SELECT ON usage_reservations TO app_user;
  CREATE POLICY usage_reservations_own ON usage_reservations TO app_user USING (payer = ${ME});

  GRANT SELECT, INSERT ON usage_reservations TO app_system;
  GRANT UPDATE (status, settled_units, closed_at) ON usage_reservations TO app_system;
  CREATE POLICY usage_reservations_system ON usage_reservations TO app_system USING (true) WITH CHECK (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE usage_reservations`.execute(db);
}
