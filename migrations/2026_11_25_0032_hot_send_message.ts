import { sql, type Kysely } from 'kysely';

/**
 * POST /api/chat's write as one prepared call (issue 8's chat latency), like the hot reads of
 * migration 2026_11_24_0007: `set_config('app.user_id', ...)` first, then, as the caller
 * (`app_user`, under row security), the user's message stored and queued in the agent's mailbox,
 * only when the agent is the caller's and running and, with a session, the session is that
 * agent's. No row back means nothing was written; the service then reads why (404 or 409). One
 * statement's implicit transaction instead of BEGIN, the write and COMMIT: two round trips fewer.
 *
 * - SECURITY INVOKER: no privilege added; the same policies as the statement it replaces.
 * - It refuses to replace an identity already set in the transaction (42501).
 * - clock_timestamp() for created_at, as every message append: a reply stored later in the same
 *   transaction still sorts after it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE FUNCTION hot_send_message(acting_user uuid, target_agent uuid, body text, from_channel text, in_session uuid)
  RETURNS TABLE (id uuid, agent_id uuid, role text, content text, channel text, session_id uuid, created_at timestamptz)
  LANGUAGE plpgsql VOLATILE SECURITY INVOKER SET search_path = public, pg_temp AS $fn$
  #variable_conflict use_column
  BEGIN
    IF coalesce(current_setting('app.user_id', true), '') NOT IN ('', acting_user::text) THEN
      RAISE EXCEPTION 'hot call: another identity is already set in this transaction' USING ERRCODE = '42501';
    END IF;
    PERFORM set_config('app.user_id', acting_user::text, true);
    RETURN QUERY
      WITH stored AS (
        INSERT INTO agent_messages (agent_id, user_id, role, content, channel, session_id, created_at)
        SELECT a.id, acting_user, 'user', body, from_channel, in_session, clock_timestamp()
          FROM agents a
         WHERE a.id = target_agent AND a.status = 'running'
           AND (in_session IS NULL OR EXISTS (SELECT 1 FROM agent_sessions s WHERE s.id = in_session AND s.agent_id = a.id))
        RETURNING agent_messages.id, agent_messages.agent_id, agent_messages.role, agent_messages.content,
                  agent_messages.channel, agent_messages.session_id, agent_messages.created_at
      ), queued AS (
        INSERT INTO agent_mailbox (message_id, agent_id, user_id) SELECT stored.id, stored.agent_id, acting_user FROM stored
      )
      SELECT stored.id, stored.agent_id, stored.role, stored.content, stored.channel, stored.session_id, stored.created_at FROM stored;
  END
  $fn$;

  REVOKE ALL ON FUNCTION hot_send_message(uuid, uuid, text, text, uuid) FROM PUBLIC;
  GRANT EXECUTE ON FUNCTION hot_send_message(uuid, uuid, text, text, uuid) TO app_user;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP FUNCTION hot_send_message(uuid, uuid, text, text, uuid)`.execute(db);
}
