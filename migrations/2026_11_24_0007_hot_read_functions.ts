import { sql, type Kysely } from 'kysely';

/**
 * The hot reads as functions (CONTRACT.md section 3, third form): one prepared call does
 * `set_config('app.user_id', $1, true)` as its first step, then runs the read as the caller.
 *
 * - SECURITY INVOKER: the read runs as `app_user`, under the same row-security policies as any
 *   other statement; the function adds no privilege. It sets only the identity it is given, so it
 *   is exactly as safe as its caller: the service calls it with a uuid it validated, from
 *   `readAsUser` only, on a pooled connection outside any transaction.
 * - It refuses to replace an identity already set in the transaction, so it cannot turn a unit of
 *   work of one user into another's (raised as 42501).
 * - VOLATILE (set_config changes state). The setting is local: it ends with the transaction, here
 *   the implicit one of the calling statement.
 * - search_path pinned, so neither the caller's path nor a temporary object changes what it reads.
 * - Statuses spelled out on purpose (a migration never imports application code): subscribed
 *   means `active` or `trialing` (CONTRACT.md section 5). The read's text matches HOT_READS.
 */
const IDENTITY = `
  IF coalesce(current_setting('app.user_id', true), '') NOT IN ('', acting_user::text) THEN
    RAISE EXCEPTION 'hot read: another identity is already set in this transaction' USING ERRCODE = '42501';
  END IF;
  PERFORM set_config('app.user_id', acting_user::text, true);`;

const OPTIONS = `LANGUAGE plpgsql VOLATILE SECURITY INVOKER SET search_path = public, pg_temp`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE FUNCTION hot_profile(acting_user uuid)
  RETURNS TABLE (id uuid, email citext, name text, email_verified_at timestamptz, credits integer,
                 referral_code text, notifications jsonb, two_factor_enabled boolean,
                 created_at timestamptz, updated_at timestamptz, subscriptions text[])
  ${OPTIONS} AS $fn$
  #variable_conflict use_column
  BEGIN${IDENTITY}
    RETURN QUERY
      SELECT users.id, users.email, users.name, users.email_verified_at, users.credits, users.referral_code,
             users.notifications, users.two_factor_enabled, users.created_at, users.updated_at,
             ARRAY(SELECT s.status || ':' || s.catalog || ':' || s.plan FROM subscriptions s
                    WHERE s.user_id = users.id AND s.plan IS NOT NULL AND s.status IN ('active', 'trialing'))
        FROM users WHERE users.id = acting_user;
  END
  $fn$;

  CREATE FUNCTION hot_chat_access(acting_user uuid)
  RETURNS TABLE (kind text, id text, status text, catalog text, plan text)
  ${OPTIONS} AS $fn$
  #variable_conflict use_column
  BEGIN${IDENTITY}
    RETURN QUERY
      SELECT 's'::text, s.processor_subscription_id, s.status, s.catalog, s.plan FROM subscriptions s WHERE s.user_id = acting_user
      UNION ALL SELECT 'k'::text, k.provider, NULL::text, NULL::text, NULL::text FROM byok_keys k WHERE k.user_id = acting_user;
  END
  $fn$;

  REVOKE ALL ON FUNCTION hot_profile(uuid), hot_chat_access(uuid) FROM PUBLIC;
  GRANT EXECUTE ON FUNCTION hot_profile(uuid), hot_chat_access(uuid) TO app_user;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP FUNCTION hot_chat_access(uuid), hot_profile(uuid)`.execute(db);
}
