import { sql, type Kysely } from 'kysely';

/**
 * Skills installed on agents (issue 9; CONTRACT.md section 7 "installed skill"). One row per agent
 * and skill slug; `version` is the manifest version at install time; `enabled` is what
 * `/api/agent` `update_skill` toggles (a disabled skill stays installed and counts toward the
 * plan's limit, but is not offered to the model).
 *
 * app_user reads, installs and toggles its own agents' skills; app_system gets nothing (no system
 * path reads installs yet). Deletion only by cascade from the agent or the account.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE skill_installs (
    agent_id uuid NOT NULL,
    user_id uuid NOT NULL,
    skill_id text NOT NULL CHECK (skill_id ~ '^[a-z0-9-]{1,64}$'),
    version text NOT NULL CHECK (char_length(version) BETWEEN 1 AND 32),
    enabled boolean NOT NULL DEFAULT true,
    installed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (agent_id, skill_id),
    FOREIGN KEY (agent_id, user_id) REFERENCES agents (id, user_id) ON DELETE CASCADE
  );
  CREATE INDEX skill_installs_user_idx ON skill_installs (user_id);

  ALTER TABLE skill_installs ENABLE ROW LEVEL SECURITY;
  GRANT SELECT, INSERT ON skill_installs TO app_user;
  GRANT UPDATE (enabled, updated_at) ON skill_installs TO app_user;
  CREATE POLICY skill_installs_own ON skill_installs TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE skill_installs`.execute(db);
}
