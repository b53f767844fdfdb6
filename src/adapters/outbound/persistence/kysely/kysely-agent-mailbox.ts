import { sql, type Kysely } from 'kysely';
import type { ClaimedMessage, ClaimedWithContext, MailboxClaim, MailboxOutcome, MailboxStatus, SystemMailbox, UserMailbox } from '../../../../application/ports/agent-mailbox.port.js';
import type { AgentMessage } from '../../../../application/ports/agent-message-repository.port.js';
import { isUuid, type UserId } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';
import { toMessage, type AgentMessageRow } from './kysely-agent-message-repository.js';
import { toAgent, type AgentRow } from './kysely-agent-repository.js';
import { toEntries } from './kysely-agent-memory-repository.js';
import { toRecord, type SkillInstallRow } from './kysely-skill-install-repository.js';
import type { McpServerTools } from '../../../../application/ports/mcp-server-repository.port.js';

/** The acting user's mailbox rows (RLS: their own; inserted only as `queued`). */
export class KyselyUserMailbox implements UserMailbox {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly userId: UserId,
  ) {}

  async enqueue(messageId: string, agentId: string): Promise<void> {
    await this.db.insertInto('agent_mailbox').values({ message_id: messageId, agent_id: agentId, user_id: this.userId }).execute();
  }

  async outcome(messageId: string): Promise<MailboxOutcome | null> {
    if (!isUuid(messageId)) return null;
    const row = await this.db
      .selectFrom('agent_mailbox')
      .select(['status', 'reply_message_id', 'error_code', 'error'])
      .where('message_id', '=', messageId)
      .executeTakeFirst();
    return row ? { status: row.status as MailboxStatus, replyMessageId: row.reply_message_id, errorCode: row.error_code, error: row.error } : null;
  }
}

export class KyselySystemMailbox implements SystemMailbox {
  constructor(private readonly db: Kysely<Database>) {}

  async usersWithWork(limit: number): Promise<UserId[]> {
    // each status through its own partial index: one IN over both read every row ever kept
    const { rows } = await sql<{ user_id: string }>`
      SELECT user_id FROM (
        SELECT user_id, seq FROM agent_mailbox WHERE status = 'queued'
        UNION ALL
        SELECT user_id, seq FROM agent_mailbox WHERE status = 'working'
      ) open GROUP BY user_id ORDER BY min(seq) LIMIT ${limit}`.execute(this.db);
    return rows.map((r) => r.user_id as UserId);
  }

  async claimNext(userId: UserId, claim: MailboxClaim): Promise<ClaimedMessage | null> {
    try {
      const { rows } = await sql<ClaimRow>`WITH ${claiming(userId, claim)} SELECT * FROM claimed`.execute(this.db);
      const r = rows[0];
      return r ? toClaimed(r, userId, claim) : null;
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return null; // another claim of this agent won
      throw err;
    }
  }

  async claimNextWithContext(userId: UserId, claim: MailboxClaim, historyLimit: number): Promise<ClaimedWithContext | null> {
    const limit = Math.max(0, Math.floor(historyLimit));
    // The reads below mirror SystemAgentRepository.get, SystemAgentMessageRepository.history,
    // SystemSkillInstalls.listForAgent and SystemAgentMemoryRepository.entriesOf for the claimed
    // message's agent and session (a test holds them equal); as one statement they see its snapshot,
    // in which the claimed message is still queued: the history leaves it out either way.
    try {
      const { rows } = await sql<ContextRow>`
        WITH ${claiming(userId, claim)},
        waiting AS MATERIALIZED (
          SELECT q.message_id FROM agent_mailbox q JOIN claimed c ON q.agent_id = c.agent_id WHERE q.status = 'queued'
          UNION ALL
          SELECT q.message_id FROM agent_mailbox q JOIN claimed c ON q.agent_id = c.agent_id WHERE q.status = 'working'
        ),
        -- the bound first, its session test IS NULL or = (never IS NOT DISTINCT FROM, which read
        -- every message of the agent), then the page as an index range (decision 0465)
        bound AS MATERIALIZED (
          SELECT coalesce(
            (SELECT u.created_at FROM agent_messages u
              WHERE u.agent_id = c.agent_id AND u.role = 'user' AND c.session_id IS NULL AND u.session_id IS NULL
                AND u.id NOT IN (SELECT message_id FROM waiting)
              ORDER BY u.created_at DESC, u.id DESC
              OFFSET ${Math.max(0, limit - 1)} LIMIT 1),
            (SELECT u.created_at FROM agent_messages u
              WHERE u.agent_id = c.agent_id AND u.role = 'user' AND u.session_id = c.session_id
                AND u.id NOT IN (SELECT message_id FROM waiting)
              ORDER BY u.created_at DESC, u.id DESC
              OFFSET ${Math.max(0, limit - 1)} LIMIT 1),
            '-infinity'::timestamptz) AS since
          FROM claimed c
        ), recent AS (
          SELECT m.id, m.agent_id, m.role, m.content, m.channel, m.session_id, m.created_at,
                 coalesce(m.question_at, m.created_at) AS sort_at
            FROM agent_messages m JOIN claimed c ON m.agent_id = c.agent_id
           WHERE m.created_at >= (SELECT since FROM bound)
             AND m.role IN ('user', 'assistant') AND m.session_id IS NOT DISTINCT FROM c.session_id
             AND m.id NOT IN (SELECT message_id FROM waiting)
        ), page AS (
          SELECT id, agent_id, role, content, channel, session_id, created_at, sort_at FROM recent
           ORDER BY sort_at DESC, (role = 'assistant') DESC, created_at DESC, id DESC
           LIMIT ${limit}
        )
        SELECT c.*,
          (SELECT row_to_json(a) FROM (
             SELECT agents.id, agents.user_id, agents.name, agents.model, agents.tier, agents.status, agents.config, agents.created_at, agents.updated_at,
                    v.verification_type, v.attestation_uid, v.verified_at
               FROM agents LEFT JOIN agent_verifications v ON v.agent_id = agents.id WHERE agents.id = c.agent_id) a) AS agent,
          coalesce((SELECT json_agg(p ORDER BY p.sort_at, (p.role = 'assistant'), p.created_at, p.id) FROM page p), '[]') AS history,
          coalesce((SELECT json_agg(i ORDER BY i.installed_at, i.skill_id) FROM (
             SELECT agent_id, skill_id, version, enabled, installed_at FROM skill_installs WHERE agent_id = c.agent_id) i), '[]') AS installs,
          coalesce((SELECT json_agg(json_build_object('key', k.key, 'value', k.value) ORDER BY k.key) FROM agent_memory k WHERE k.agent_id = c.agent_id), '[]') AS memory,
          ${sql.raw(MCP_SERVER_TOOLS('c.agent_id'))} AS mcp_servers
        FROM claimed c`.execute(this.db);
      const r = rows[0];
      return r ? toContext(r, userId, claim) : null;
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return null; // another claim of this agent won
      throw err;
    }
  }

  async fail(claimed: Pick<ClaimedMessage, 'messageId' | 'claimId' | 'agentId'>, failure: { errorCode: string; error: string }): Promise<boolean> {
    // The agent's row first (KEY SHARE), in the order `answer` takes them: the caller writes the
    // failure's event next, whose foreign key locks the agent; holding the mailbox row while waiting
    // for that lock deadlocked with the agent's removal (agent, then its cascade the mailbox row).
    const { rows } = await sql<{ message_id: string }>`
      WITH agent AS (SELECT 1 FROM agents WHERE id = ${claimed.agentId} FOR KEY SHARE)
      UPDATE agent_mailbox SET status = 'failed', error_code = ${failure.errorCode}, error = ${failure.error.slice(0, 1000)}, finished_at = now()
      WHERE message_id = ${claimed.messageId} AND status = 'working' AND claim_id = ${claimed.claimId}::uuid
        AND EXISTS (SELECT 1 FROM agent)
      RETURNING message_id`.execute(this.db);
    return rows.length > 0;
  }

  async answer(
    claimed: Pick<ClaimedMessage, 'messageId' | 'claimId' | 'agentId' | 'userId' | 'sessionId'>,
    reply: { content: string; channel: string; model: string },
    event: { durationMs: number; at: Date },
  ): Promise<AgentMessage | null> {
    // One statement: the mailbox row is closed first and the reply and event are written only from
    // its RETURNING, so a row that stopped being `working` writes nothing. The foreign key from the
    // mailbox row to the reply is checked at the end of the statement, when the reply exists.
    // clock_timestamp() so the reply sorts after its question (as the repository's append does);
    // question_at keeps the question's own time, exact to the microsecond, for the history's order.
    // The agent's row is locked (KEY SHARE, as the reply's foreign key would) before the mailbox
    // row: an agent's removal locks the agent, then its cascade the mailbox row, so taking them the
    // other way round deadlocked with it (the removal answered 500). Now one waits for the other; a
    // removed agent's answer finds no agent and writes nothing.
    const { rows } = await sql<AgentMessageRow>`
      WITH agent AS (SELECT 1 FROM agents WHERE id = ${claimed.agentId} FOR KEY SHARE),
      reply_id AS (SELECT gen_random_uuid() AS id),
      closed AS (
        UPDATE agent_mailbox SET status = 'answered', reply_message_id = (SELECT id FROM reply_id), finished_at = now()
        WHERE message_id = ${claimed.messageId} AND status = 'working' AND claim_id = ${claimed.claimId}::uuid
          AND EXISTS (SELECT 1 FROM agent)
        RETURNING message_id
      ),
      stored AS (
        INSERT INTO agent_messages (id, agent_id, user_id, role, content, channel, session_id, created_at, question_at, model)
        SELECT (SELECT id FROM reply_id), ${claimed.agentId}, ${claimed.userId}, 'assistant', ${reply.content}, ${reply.channel}, ${claimed.sessionId}::uuid, clock_timestamp(), q.created_at, ${reply.model.slice(0, 200) || null}
          FROM closed JOIN agent_messages q ON q.id = closed.message_id
        RETURNING id, agent_id, role, content, channel, session_id, created_at, model
      ),
      logged AS (
        INSERT INTO agent_events (agent_id, user_id, kind, duration_ms, reason, at)
        SELECT ${claimed.agentId}, ${claimed.userId}, 'message_answered', ${event.durationMs}, NULL, ${event.at} FROM closed
      )
      SELECT * FROM stored`.execute(this.db);
    const r = rows[0];
    return r ? toMessage(r) : null;
  }

  async makeDurable(messageId: string): Promise<void> {
    if (!isUuid(messageId)) return;
    // a new row version is a WAL record, and its synchronous commit flushes the WAL up to it
    await sql`UPDATE agent_mailbox SET attempts = attempts WHERE message_id = ${messageId}`.execute(this.db);
  }

  async retryLater(claimId: string, maxAttempts: number, errorCode: string, error: string): Promise<'queued' | 'failed' | null> {
    const { rows } = await sql<{ status: 'queued' | 'failed' }>`
      UPDATE agent_mailbox SET
        status = CASE WHEN attempts < ${maxAttempts} THEN 'queued' ELSE 'failed' END,
        started_at = CASE WHEN attempts < ${maxAttempts} THEN NULL ELSE started_at END,
        error_code = CASE WHEN attempts < ${maxAttempts} THEN NULL ELSE ${errorCode} END,
        error = CASE WHEN attempts < ${maxAttempts} THEN NULL ELSE ${error.slice(0, 1000)} END,
        finished_at = CASE WHEN attempts < ${maxAttempts} THEN NULL ELSE now() END
      WHERE claim_id = ${claimId}::uuid AND status = 'working'
      RETURNING status`.execute(this.db);
    return rows[0]?.status ?? null;
  }

  async requeueClaimsOfOthers(userId: UserId, workerId: string, maxAttempts: number, errorCode: string): Promise<{ requeued: number; failed: number }> {
    const { rows } = await sql<{ status: string }>`
      UPDATE agent_mailbox SET
        status = CASE WHEN attempts < ${maxAttempts} THEN 'queued' ELSE 'failed' END,
        started_at = CASE WHEN attempts < ${maxAttempts} THEN NULL ELSE started_at END,
        error_code = CASE WHEN attempts < ${maxAttempts} THEN NULL ELSE ${errorCode} END,
        error = CASE WHEN attempts < ${maxAttempts} THEN NULL ELSE 'The answer was interrupted too many times' END,
        finished_at = CASE WHEN attempts < ${maxAttempts} THEN NULL ELSE now() END
      WHERE user_id = ${userId} AND status = 'working' AND claimed_by IS NOT NULL AND claimed_by <> ${workerId}
      RETURNING status`.execute(this.db);
    return { requeued: rows.filter((r) => r.status === 'queued').length, failed: rows.filter((r) => r.status === 'failed').length };
  }

  async recoverStale(userId: UserId, before: Date, exceptAgents: readonly string[], maxAttempts: number, errorCode: string): Promise<{ requeued: number; failed: number }> {
    const except = exceptAgents.length > 0 ? exceptAgents : ['00000000-0000-0000-0000-000000000000'];
    const { rows } = await sql<{ status: string }>`
      UPDATE agent_mailbox SET
        status = CASE WHEN attempts < ${maxAttempts} THEN 'queued' ELSE 'failed' END,
        error_code = CASE WHEN attempts < ${maxAttempts} THEN NULL ELSE ${errorCode} END,
        error = CASE WHEN attempts < ${maxAttempts} THEN NULL ELSE 'The answer was interrupted too many times' END,
        finished_at = CASE WHEN attempts < ${maxAttempts} THEN NULL ELSE now() END
      WHERE user_id = ${userId} AND status = 'working' AND started_at < ${before}
        AND agent_id <> ALL(${sql.val(except)}::uuid[])
      RETURNING status`.execute(this.db);
    return { requeued: rows.filter((r) => r.status === 'queued').length, failed: rows.filter((r) => r.status === 'failed').length };
  }
}

type ContextRow = ClaimRow & {
  agent: Record<string, unknown> | null;
  history: Record<string, unknown>[];
  installs: Record<string, unknown>[];
  memory: { key: string; value: unknown }[];
  mcp_servers: McpServerTools[];
};

/**
 * The agent's MCP servers as an answer offers them (SystemMcpServers.listForAgent's order and
 * fields, projected: no URL, no sealed headers), as one JSON column of a claim's statement; `agent`
 * is the SQL expression naming the claimed message's agent.
 */
export const MCP_SERVER_TOOLS = (agent: string) =>
  `coalesce((SELECT json_agg(json_build_object('name', s.name, 'tools', coalesce(s.tools, '[]'::jsonb), 'allowedTools', s.allowed_tools) ORDER BY s.created_at, s.id)
     FROM agent_mcp_servers s WHERE s.agent_id = ${agent}), '[]')`;

/** A claimed row with its context as JSON columns (claimNextWithContext, and the hot write that stores a message claimed: hot_send_and_claim). */
export const toContext = (r: ContextRow, userId: UserId, claim: MailboxClaim): ClaimedWithContext => {
  const at = (v: unknown) => new Date(v as string);
  return {
    claimed: toClaimed(r, userId, claim),
    agent: r.agent ? toAgent({ ...(r.agent as unknown as AgentRow), created_at: at(r.agent.created_at), updated_at: at(r.agent.updated_at), verified_at: r.agent.verified_at ? at(r.agent.verified_at) : null }) : null,
    history: r.history.map((m) => toMessage({ ...(m as unknown as AgentMessageRow), created_at: at(m.created_at) })),
    installs: r.installs.map((i) => toRecord({ ...(i as unknown as SkillInstallRow), installed_at: at(i.installed_at) })),
    memory: toEntries(r.memory),
    mcpServers: r.mcp_servers,
  };
};

type ClaimRow = { message_id: string; agent_id: string; attempts: number; content: string; session_id: string | null; created_at: Date; others_queued: boolean };

const toClaimed = (r: ClaimRow, userId: UserId, claim: MailboxClaim): ClaimedMessage => ({
  messageId: r.message_id,
  claimId: claim.claimId,
  agentId: r.agent_id,
  userId,
  content: r.content,
  sessionId: r.session_id,
  createdAt: r.created_at,
  attempts: r.attempts,
  othersQueued: r.others_queued,
});

/**
 * The claim's CTEs, the last one `claimed` (the claimed row, or none). Only an agent's oldest queued
 * message is a candidate, only while none of its messages is working, and only while the agent is
 * running: a message of an agent in error or stopped waits, queued and with no attempt spent, for it
 * to run again (claimed in the moment a repair had started the runtime but not yet marked the agent
 * running, it was failed as AGENT_NOT_RUNNING). A concurrent claimer
 * skips the row locked here; if it read before this commit it still sees this row as the oldest
 * queued one, so it cannot take the next one either, and the unique index on working rows catches
 * any remaining overlap (the claim then fails with 23505 and yields nothing).
 *
 * Committed without waiting for the disk (this statement's transaction only): other claimers see it
 * at once, and a crash of PostgreSQL that loses it loses nothing else that depends on it (the
 * answer's store, a synchronous commit, flushes the claim before it): the message is simply queued
 * again, as after a worker's crash. `others_queued`: another message of the user was queued, as the
 * claim's snapshot saw it.
 */
const claiming = (userId: UserId, claim: MailboxClaim) => sql`
  no_flush_wait AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true) AS setting),
  next AS (
    SELECT q.message_id FROM agent_mailbox q
    WHERE q.user_id = ${userId} AND q.status = 'queued'
      AND q.seq = (SELECT min(o.seq) FROM agent_mailbox o WHERE o.agent_id = q.agent_id AND o.status = 'queued')
      AND NOT EXISTS (SELECT 1 FROM agent_mailbox w WHERE w.agent_id = q.agent_id AND w.status = 'working')
      AND EXISTS (SELECT 1 FROM agents a WHERE a.id = q.agent_id AND a.status = 'running')
    ORDER BY q.seq
    LIMIT 1
    FOR UPDATE SKIP LOCKED
  ), claimed AS (
    UPDATE agent_mailbox m SET status = 'working', started_at = now(), attempts = m.attempts + 1, claim_id = ${claim.claimId}::uuid, claimed_by = ${claim.workerId}
    FROM next, agent_messages msg, no_flush_wait
    WHERE m.message_id = next.message_id AND m.status = 'queued' AND msg.id = m.message_id
    RETURNING m.message_id, m.agent_id, m.attempts, msg.content, msg.session_id, msg.created_at,
      EXISTS (SELECT 1 FROM agent_mailbox o JOIN agents oa ON oa.id = o.agent_id AND oa.status = 'running'
              WHERE o.user_id = ${userId} AND o.status = 'queued' AND o.message_id <> m.message_id) AS others_queued
  )`;

