import { sql, type Kysely } from 'kysely';

/**
 * Removing an agent (CONTRACT.md section 7 "removing an agent"): its owner deletes it, and its
 * messages, sessions, memory, skills, credentials, verification and events go with it through the
 * foreign keys' ON DELETE CASCADE (the referential actions run as the tables' owner, so app_user
 * needs DELETE on `agents` alone). Only its own rows: the policy is the select one's.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  GRANT DELETE ON agents TO app_user;
  CREATE POLICY agents_own_delete ON agents FOR DELETE TO app_user USING (user_id = ${ME});
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  DROP POLICY agents_own_delete ON agents;
  REVOKE DELETE ON agents FROM app_user;
  `,
    )
    .execute(db);
}
