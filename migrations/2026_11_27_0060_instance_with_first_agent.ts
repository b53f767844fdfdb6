import { sql, type Kysely } from 'kysely';

/**
 * A user's instance row is made in the transaction that provisions their first agent, so the
 * agent's detail (plan, runtime version, subdomain, url) and GET /api/instance answer from the
 * first read instead of after the provision job ran. That transaction acts as the user: app_user
 * may insert its own instance row (the `instances_own` policy's USING is also its check), never
 * another user's, and still reads no gateway token column.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  GRANT INSERT (user_id, status, started_at, subdomain, url, plan, runtime_version,
                gateway_token_key_id, gateway_token_sealed, gateway_token_hash, ram_gb) ON instances TO app_user;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`REVOKE INSERT ON instances FROM app_user;`).execute(db);
}
