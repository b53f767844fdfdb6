import { sql, type Kysely } from 'kysely';
import { up as sendAndClaimByPartialIndexes } from './2026_11_27_0102_send_and_claim_by_partial_indexes.js';

/**
 * Two reads whose cost grew with the rows kept (decision 0465), found by `npm run soak`:
 *
 * - hot_send_and_claim (0102) read the history through one statement whose session test was
 *   `IS NOT DISTINCT FROM` and whose lower bound was a `coalesce(...)` of a subquery: under row-level
 *   security neither can be an index condition, and the planner, guessing 0.5% for the session test,
 *   read every message of the agent (bitmap scan) and sorted them, twice, on every message sent.
 *   The bound is now found first, by `IS NULL` or `=` (one statement each), walking the agent's
 *   index newest first; the page then reads the messages since that bound as an index range.
 *   Same rows, same order: only the way they are found changed.
 * - A page of an agent's messages joins each message's failed mailbox row; no index held failed
 *   rows alone, so the join read the whole mailbox, every user's. A partial index holds them.
 * - Under row-level security every read of an agent's rows also says user_id = <the acting user>;
 *   the planner took it for an independent filter (1 / the number of users) and expected a
 *   handful of rows, so a page of messages (and the history's bound) read and sorted all of the
 *   agent's rows instead of walking its index newest first. Extended statistics tell it that an
 *   agent's rows have one user (functional dependency agent_id → user_id).
 * - Even so, with random_page_cost at its default (4) the planner walked the global
 *   agent_messages_created_idx backwards for the bound, reading every agent's messages since this
 *   agent's 20th latest question (about 850 rows with 20 agents, growing with the agents active);
 *   the function plans as for storage whose random reads cost what sequential ones do (1.1), so
 *   it walks the agent's own index: about 40 rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE INDEX agent_mailbox_failed_idx ON agent_mailbox (message_id) WHERE status = 'failed';

  -- an agent has one owner: row-level security adds user_id = <the acting user> to every read,
  -- which the planner took for a further 1/users filter, so it expected a handful of an agent's
  -- rows, sorted them all rather than walk the index newest first, and read the whole history
  CREATE STATISTICS agent_messages_owner (dependencies) ON agent_id, user_id FROM agent_messages;
  CREATE STATISTICS agent_mailbox_owner (dependencies) ON agent_id, user_id FROM agent_mailbox;
  CREATE STATISTICS agent_events_owner (dependencies) ON agent_id, user_id FROM agent_events;
  CREATE STATISTICS agent_memory_owner (dependencies) ON agent_id, user_id FROM agent_memory;
  ANALYZE agent_messages, agent_mailbox, agent_events, agent_memory;

  CREATE OR REPLACE FUNCTION hot_send_and_claim(acting_user uuid, target_agent uuid, body text, from_channel text, in_session uuid, claim uuid, worker text, history_limit integer)
  RETURNS TABLE (id uuid, agent_id uuid, role text, content text, channel text, session_id uuid, created_at timestamptz,
                 claimed boolean, attempts integer, others_queued boolean, agent json, history json, installs json, memory json)
  LANGUAGE plpgsql VOLATILE SECURITY INVOKER SET search_path = public, pg_temp SET random_page_cost = 1.1 AS $fn$
  #variable_conflict use_column
  DECLARE
    msg agent_messages%ROWTYPE;
    took boolean := false;
    waiting_ids uuid[];
    since timestamptz;
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
    -- message itself is working here, which the history leaves out as it does a queued one.
    -- The history's lower bound first, on its own: the time of the history_limit-th latest user
    -- message of the session, found by walking the agent's messages newest first through
    -- agent_messages_agent_idx. Its session test is IS NULL or = (one statement each): with
    -- IS NOT DISTINCT FROM, whose selectivity the planner guesses at 0.5%, it read every message of
    -- the agent and sorted them, on every message sent (decision 0465).
    SELECT coalesce(array_agg(q.message_id), '{}') INTO waiting_ids FROM (
      SELECT q.message_id FROM agent_mailbox q WHERE q.agent_id = msg.agent_id AND q.status = 'queued'
      UNION ALL
      SELECT q.message_id FROM agent_mailbox q WHERE q.agent_id = msg.agent_id AND q.status = 'working') q;
    IF msg.session_id IS NULL THEN
      SELECT u.created_at INTO since FROM agent_messages u
       WHERE u.agent_id = msg.agent_id AND u.role = 'user' AND u.session_id IS NULL AND u.id <> ALL (waiting_ids)
       ORDER BY u.created_at DESC, u.id DESC
      OFFSET greatest(0, history_limit - 1) LIMIT 1;
    ELSE
      SELECT u.created_at INTO since FROM agent_messages u
       WHERE u.agent_id = msg.agent_id AND u.role = 'user' AND u.session_id = msg.session_id AND u.id <> ALL (waiting_ids)
       ORDER BY u.created_at DESC, u.id DESC
      OFFSET greatest(0, history_limit - 1) LIMIT 1;
    END IF;
    since := coalesce(since, '-infinity');
    -- then the page: the messages since that bound (an index range, a plain parameter), sorted
    RETURN QUERY
      WITH recent AS (
        SELECT m.id, m.agent_id, m.role, m.content, m.channel, m.session_id, m.created_at,
               coalesce(m.question_at, m.created_at) AS sort_at
          FROM agent_messages m
         WHERE m.agent_id = msg.agent_id AND m.created_at >= since
           AND m.role IN ('user', 'assistant') AND m.session_id IS NOT DISTINCT FROM msg.session_id
           AND m.id <> ALL (waiting_ids)
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
  await sql
    .raw(
      `DROP STATISTICS agent_messages_owner, agent_mailbox_owner, agent_events_owner, agent_memory_owner;
       DROP INDEX agent_mailbox_failed_idx;`,
    )
    .execute(db);
  // 0102's function again (CREATE OR REPLACE: its grants stay)
  await sendAndClaimByPartialIndexes(db);
}
