import { sql, type Kysely } from 'kysely';
import { up as sendAndClaim } from './2026_11_27_0101_send_and_claim.js';

/**
 * hot_send_and_claim (migration 0101) without its two costs that grew with the mailbox:
 *
 * - Whether the agent has a message queued or working was one `status IN ('queued', 'working')`,
 *   which no partial index answers: a sequential scan of every mailbox row ever kept, on every
 *   message. It is now one EXISTS per status, each through its partial index.
 * - The insert already working caught the unique index's violation in an EXCEPTION block (a
 *   subtransaction on every message); it is now ON CONFLICT DO NOTHING on that index, and FOUND
 *   says whether the row went in working. Same outcome: a concurrent claim or direct store of the
 *   same agent wins, and this message is queued.
 *
 * Everything else is 0101's, unchanged.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE OR REPLACE FUNCTION hot_send_and_claim(acting_user uuid, target_agent uuid, body text, from_channel text, in_session uuid, claim uuid, worker text, history_limit integer)
  RETURNS TABLE (id uuid, agent_id uuid, role text, content text, channel text, session_id uuid, created_at timestamptz,
                 claimed boolean, attempts integer, others_queued boolean, agent json, history json, installs json, memory json)
  LANGUAGE plpgsql VOLATILE SECURITY INVOKER SET search_path = public, pg_temp AS $fn$
  #variable_conflict use_column
  DECLARE
    msg agent_messages%ROWTYPE;
    took boolean := false;
  BEGIN
    IF coalesce(current_setting('app.user_id', true), '') NOT IN ('', acting_user::text) THEN
      RAISE EXCEPTION 'hot call: another identity is already set in this transaction' USING ERRCODE = '42501';
    END IF;
    PERFORM set_config('app.user_id', acting_user::text, true);
    INSERT INTO agent_messages (agent_id, user_id, role, content, channel, session_id, created_at)
    SELECT a.id, acting_user, 'user', body, from_channel, in_session, clock_timestamp()
      FROM agents a
     WHERE a.id = target_agent AND a.status = 'running'
       AND (in_session IS NULL OR EXISTS (SELECT 1 FROM agent_sessions s WHERE s.id = in_session AND s.agent_id = a.id))
    RETURNING * INTO msg;
    IF msg.id IS NULL THEN
      RETURN;
    END IF;
    -- each status through its own partial index (one IN over both read every row of the table)
    IF NOT EXISTS (SELECT 1 FROM agent_mailbox q WHERE q.agent_id = msg.agent_id AND q.status = 'queued')
       AND NOT EXISTS (SELECT 1 FROM agent_mailbox q WHERE q.agent_id = msg.agent_id AND q.status = 'working') THEN
      -- another answer of this agent begun meanwhile (the unique index on working rows): this one waits its turn
      INSERT INTO agent_mailbox (message_id, agent_id, user_id, status, claim_id, claimed_by, started_at, attempts)
      VALUES (msg.id, msg.agent_id, acting_user, 'working', claim, worker, now(), 1)
      ON CONFLICT (agent_id) WHERE status = 'working' DO NOTHING;
      took := FOUND;
    END IF;
    IF NOT took THEN
      INSERT INTO agent_mailbox (message_id, agent_id, user_id) VALUES (msg.id, msg.agent_id, acting_user);
      RETURN QUERY SELECT msg.id, msg.agent_id, msg.role, msg.content, msg.channel, msg.session_id, msg.created_at,
        false, 0, false, NULL::json, NULL::json, NULL::json, NULL::json;
      RETURN;
    END IF;
    -- as SystemMailbox.claimNextWithContext reads it (a persistence test holds them equal); the
    -- message itself is working here, which the history leaves out as it does a queued one
    RETURN QUERY
      WITH waiting AS MATERIALIZED (
        SELECT q.message_id FROM agent_mailbox q WHERE q.agent_id = msg.agent_id AND q.status = 'queued'
        UNION ALL
        SELECT q.message_id FROM agent_mailbox q WHERE q.agent_id = msg.agent_id AND q.status = 'working'
      ), recent AS (
        SELECT m.id, m.agent_id, m.role, m.content, m.channel, m.session_id, m.created_at,
               coalesce(m.question_at, m.created_at) AS sort_at
          FROM agent_messages m
         WHERE m.agent_id = msg.agent_id AND m.role IN ('user', 'assistant') AND m.session_id IS NOT DISTINCT FROM msg.session_id
           AND m.id NOT IN (SELECT message_id FROM waiting)
           AND m.created_at >= coalesce((
             SELECT u.created_at FROM agent_messages u
              WHERE u.agent_id = msg.agent_id AND u.role = 'user' AND u.session_id IS NOT DISTINCT FROM msg.session_id
                AND u.id NOT IN (SELECT message_id FROM waiting)
              ORDER BY u.created_at DESC, u.id DESC
              OFFSET greatest(0, history_limit - 1) LIMIT 1), '-infinity')
      ), page AS (
        SELECT r.id, r.agent_id, r.role, r.content, r.channel, r.session_id, r.created_at, r.sort_at FROM recent r
         ORDER BY r.sort_at DESC, (r.role = 'assistant') DESC, r.created_at DESC, r.id DESC
         LIMIT greatest(0, history_limit)
      )
      SELECT msg.id, msg.agent_id, msg.role, msg.content, msg.channel, msg.session_id, msg.created_at, true, 1,
        EXISTS (SELECT 1 FROM agent_mailbox o WHERE o.user_id = acting_user AND o.status = 'queued' AND o.message_id <> msg.id),
        (SELECT row_to_json(a) FROM (
           SELECT agents.id, agents.user_id, agents.name, agents.model, agents.tier, agents.status, agents.config, agents.created_at, agents.updated_at,
                  v.verification_type, v.attestation_uid, v.verified_at
             FROM agents LEFT JOIN agent_verifications v ON v.agent_id = agents.id WHERE agents.id = msg.agent_id) a),
        coalesce((SELECT json_agg(p ORDER BY p.sort_at, (p.role = 'assistant'), p.created_at, p.id) FROM page p), '[]'),
        coalesce((SELECT json_agg(i ORDER BY i.installed_at, i.skill_id) FROM (
           SELECT s.agent_id, s.skill_id, s.version, s.enabled, s.installed_at FROM skill_installs s WHERE s.agent_id = msg.agent_id) i), '[]'),
        coalesce((SELECT json_agg(json_build_object('key', k.key, 'value', k.value) ORDER BY k.key) FROM agent_memory k WHERE k.agent_id = msg.agent_id), '[]');
  END
  $fn$;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // 0101's function again: dropped, then that migration's own text (its grants and policy are the same)
  await sql.raw(`DROP FUNCTION hot_send_and_claim(uuid, uuid, text, text, uuid, uuid, text, integer)`).execute(db);
  await sendAndClaim(db);
}
