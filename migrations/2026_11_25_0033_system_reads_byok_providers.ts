import { sql, type Kysely } from 'kysely';

/**
 * An agent runtime's AI call is authorised in one statement as app_system (issue 8's chat
 * latency): the gateway token's owner, the agent, the owner's subscriptions and the providers they
 * keep a BYOK key for. app_system may read which providers a user keeps a key for, nothing more:
 * never the key's id, its ciphertext or its dates, and never write.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  GRANT SELECT (user_id, provider) ON byok_keys TO app_system;
  CREATE POLICY byok_keys_system_providers ON byok_keys FOR SELECT TO app_system USING (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  DROP POLICY byok_keys_system_providers ON byok_keys;
  REVOKE SELECT (user_id, provider) ON byok_keys FROM app_system;
  `,
    )
    .execute(db);
}
