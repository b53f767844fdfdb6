import { sql, type Kysely } from 'kysely';

/**
 * Runtime ownership (issue 8, CONTRACT.md section 7 "runtime ownership"):
 *
 * - `instance_leases`: which worker process runs a user's instance, until when. A worker renews
 *   its leases by heartbeat; a lease whose `expires_at` passed belongs to nobody and any worker
 *   may take it. Times are the database's `now()` only, so workers' clocks never disagree.
 * - `instance_commands`: lifecycle calls from any api process to the owning worker. The api
 *   process inserts a row and waits for `answer`; a worker claims rows of the instances it holds
 *   (or that nobody holds), runs them and writes the answer.
 * - `instances.ram_gb`: the plan's RAM at the last provisioning, so a worker taking an instance
 *   over starts it with the same cap.
 *
 * Only app_system touches them (no user reads or writes them); rows go with the instance.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE instances ADD COLUMN ram_gb numeric NOT NULL DEFAULT 1 CHECK (ram_gb > 0);

  CREATE TABLE instance_leases (
    user_id uuid PRIMARY KEY REFERENCES instances (user_id) ON DELETE CASCADE,
    worker_id text NOT NULL CHECK (char_length(worker_id) BETWEEN 1 AND 200),
    expires_at timestamptz NOT NULL
  );
  CREATE INDEX instance_leases_worker_idx ON instance_leases (worker_id);

  CREATE TABLE instance_commands (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES instances (user_id) ON DELETE CASCADE,
    command text NOT NULL CHECK (command IN ('start', 'stop', 'restart', 'update', 'repair', 'reset-memory', 'stats', 'join')),
    claimed_by text,
    answer jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    answered_at timestamptz
  );
  CREATE INDEX instance_commands_open_idx ON instance_commands (created_at) WHERE claimed_by IS NULL;

  ALTER TABLE instance_leases ENABLE ROW LEVEL SECURITY;
  ALTER TABLE instance_commands ENABLE ROW LEVEL SECURITY;
  GRANT SELECT, INSERT, UPDATE, DELETE ON instance_leases, instance_commands TO app_system;
  CREATE POLICY instance_leases_system ON instance_leases TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY instance_commands_system ON instance_commands TO app_system USING (true) WITH CHECK (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE instance_commands, instance_leases; ALTER TABLE instances DROP COLUMN ram_gb`.execute(db);
}
