import { sql, type Kysely } from 'kysely';

/**
 * The two roles the service's pools run as (CONTRACT.md section 3). Roles are cluster-wide,
 * so creating them tolerates a concurrent migration of another database on the same server.
 * Neither owns anything nor bypasses row-level security. The migrating login becomes a member
 * of both, so its pools can take them on connect (`-c role=...`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const role of ['app_user', 'app_system']) {
    await sql
      .raw(
        `DO $$ BEGIN
           CREATE ROLE ${role} NOLOGIN NOBYPASSRLS;
         EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
         END $$`,
      )
      .execute(db);
    await sql.raw(`GRANT ${role} TO current_user`).execute(db);
    await sql.raw(`GRANT USAGE ON SCHEMA public TO ${role}`).execute(db);
  }
  await sql`CREATE EXTENSION IF NOT EXISTS citext`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`REVOKE USAGE ON SCHEMA public FROM app_user, app_system`.execute(db);
}
