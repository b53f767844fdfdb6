import { sql, type Kysely } from 'kysely';

/**
 * The skills catalog's `downloads` (issue 9): how many agents have each skill installed, across
 * all users, while `skill_installs` stays readable by its owners only (row-level security).
 *
 * `skill_install_counts()` is SECURITY DEFINER: it runs as the owner role, which row security does
 * not restrict, and returns only aggregate counts per skill, never a user, an agent or a time. It
 * takes no argument, so nothing a caller passes can widen what it reads; search_path is pinned so
 * no caller's object can stand in for the table. Only app_system may call it (the catalog is
 * public, served by the system unit of work). A deleted agent's installs are gone, so the count
 * is of installs that exist now.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE FUNCTION skill_install_counts()
  RETURNS TABLE (skill_id text, installs bigint)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
    SELECT i.skill_id, count(*) FROM public.skill_installs i GROUP BY i.skill_id
  $fn$;
  REVOKE ALL ON FUNCTION skill_install_counts() FROM PUBLIC;
  GRANT EXECUTE ON FUNCTION skill_install_counts() TO app_system;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP FUNCTION skill_install_counts()`.execute(db);
}
