import { sql, type Kysely } from 'kysely';

/**
 * A usage reservation belongs to its call for as long as the call lives: the process running the
 * call renews `renewed_at` while it waits (a lease), and the stale sweep releases only a
 * reservation whose last renewal is older than RESERVATION_STALE_MS (its process is gone, or has
 * given up on it). Before this a stream the client stopped reading outlived the bound, the sweep
 * refunded its units while it still ran, and its settlement then found nothing open.
 *
 * Grants: app_system may also move `renewed_at`; payer, day and units stay unchangeable.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE usage_reservations ADD COLUMN renewed_at timestamptz;
  UPDATE usage_reservations SET renewed_at = created_at;
  -- the lease starts when the row is written (the meter's reserve statement sets it to its clock)
  ALTER TABLE usage_reservations ALTER COLUMN renewed_at SET NOT NULL, ALTER COLUMN renewed_at SET DEFAULT now();
  -- the stale sweep reads open rows by their last renewal, oldest first
  DROP INDEX usage_reservations_open_idx;
  CREATE INDEX usage_reservations_open_idx ON usage_reservations (renewed_at) WHERE status = 'open';
  GRANT UPDATE (renewed_at) ON usage_reservations TO app_system;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  REVOKE UPDATE (renewed_at) ON usage_reservations FROM app_system;
  DROP INDEX usage_reservations_open_idx;
  CREATE INDEX usage_reservations_open_idx ON usage_reservations (created_at) WHERE status = 'open';
  ALTER TABLE usage_reservations DROP COLUMN renewed_at;
  `,
    )
    .execute(db);
}
