import { sql, type Kysely } from 'kysely';

/**
 * The mailbox worker reads an agent's installed skills in the transaction that claims its message
 * (issue 8's chat latency): one transaction per answer instead of two. app_system may read the
 * columns that make the agent's tools, nothing more, and never write them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  GRANT SELECT (agent_id, skill_id, version, enabled, installed_at) ON skill_installs TO app_system;
  CREATE POLICY skill_installs_system ON skill_installs FOR SELECT TO app_system USING (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  DROP POLICY skill_installs_system ON skill_installs;
  REVOKE SELECT (agent_id, skill_id, version, enabled, installed_at) ON skill_installs FROM app_system;
  `,
    )
    .execute(db);
}
