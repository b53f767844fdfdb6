import { sql, type Kysely } from 'kysely';

/**
 * The stale sweep's index holds the rows whose `closed_at` is null (the same rows as `status =
 * 'open'`: a CHECK holds the two equal), so that no statement that finds a reservation by its id
 * can be planned through it (decision 0475).
 *
 * Keyed on `status = 'open'`, the index matched the settlement's and the renewal's own `status =
 * 'open'`; the planner, counting the few open rows the last VACUUM had seen, took a walk of the
 * whole index (every reservation opened since that vacuum, most of them closed since) for cheaper
 * than a primary-key lookup. Under the soak's load the settlement read 26 buffers a call after a
 * vacuum and 60 to 96 between vacuums, more as the table grew and its vacuums came further apart.
 * The planner does not use CHECK constraints to match a partial index, so with `closed_at IS
 * NULL` only the sweep, which names it, reaches this index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  DROP INDEX usage_reservations_open_idx;
  CREATE INDEX usage_reservations_open_idx ON usage_reservations (renewed_at) WHERE closed_at IS NULL;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  DROP INDEX usage_reservations_open_idx;
  CREATE INDEX usage_reservations_open_idx ON usage_reservations (renewed_at) WHERE status = 'open';
  `,
    )
    .execute(db);
}
