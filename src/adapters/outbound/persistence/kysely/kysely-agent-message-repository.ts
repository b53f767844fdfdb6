import { sql, type Kysely } from 'kysely';
import type {
  AgentMessage,
  AgentMessageRepository,
  NewAgentMessage,
  SystemAgentMessageRepository,
} from '../../../../application/ports/agent-message-repository.port.js';
import { isUuid } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';

const COLUMNS = ['id', 'agent_id', 'role', 'content', 'channel', 'session_id', 'created_at', 'model'] as const;

/** An agent_messages row as read by every statement that returns messages. */
export type AgentMessageRow = { id: string; agent_id: string; role: string; content: string; channel: string; session_id: string | null; created_at: Date; model?: string | null };

export const toMessage = (r: AgentMessageRow): AgentMessage => ({
  id: r.id,
  agentId: r.agent_id,
  role: r.role as AgentMessage['role'],
  content: r.content,
  channel: r.channel,
  sessionId: r.session_id,
  createdAt: r.created_at,
  ...(r.model ? { model: r.model } : {}),
});

// clock_timestamp(), not now(): a reply stored in the same transaction as its question still sorts after it
const append = async (db: Kysely<Database>, m: NewAgentMessage): Promise<AgentMessage> =>
  toMessage(
    await db
      .insertInto('agent_messages')
      .values({ agent_id: m.agentId, user_id: m.userId, role: m.role, content: m.content, channel: m.channel, session_id: m.sessionId ?? null, created_at: sql<Date>`clock_timestamp()` })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow(),
  );

/** The acting user's agents' messages: RLS scopes every statement to them. */
export class KyselyAgentMessageRepository implements AgentMessageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async page(agentId: string, limit: number, offset: number): Promise<{ messages: (AgentMessage & { failedWith?: string })[]; total: number }> {
    if (!isUuid(agentId)) return { messages: [], total: 0 };
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('agent_messages as m')
        // a user message's mailbox row (one per message): its failure code when its answer failed
        .leftJoin('agent_mailbox as mb', (j) => j.onRef('mb.message_id', '=', 'm.id').on('mb.status', '=', 'failed'))
        .select(COLUMNS.map((c) => `m.${c}` as const))
        .select(['mb.status as mailbox_status', 'mb.error_code'])
        .where('m.agent_id', '=', agentId)
        .orderBy('m.created_at', 'desc')
        .orderBy('m.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      // kept by a trigger as messages are stored (decision 0465): a count(*) grew with the history
      this.db.selectFrom('agent_message_counts').select('messages').where('agent_id', '=', agentId).executeTakeFirst(),
    ]);
    return { messages: rows.map((r) => (r.mailbox_status ? { ...toMessage(r), failedWith: r.error_code ?? 'PROVIDER_ERROR' } : toMessage(r))), total: Number(count?.messages ?? 0) };
  }

  append(message: NewAgentMessage): Promise<AgentMessage> {
    return append(this.db, message);
  }

  async get(id: string): Promise<AgentMessage | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.selectFrom('agent_messages').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? toMessage(row) : null;
  }
}

export class KyselySystemAgentMessageRepository implements SystemAgentMessageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  append(message: NewAgentMessage): Promise<AgentMessage> {
    return append(this.db, message);
  }

  async history(agentId: string, limit: number, sessionId: string | null = null): Promise<AgentMessage[]> {
    if (limit < 1) return [];
    // In conversation order: a reply sorts right after its question (by the question's time), even
    // when later questions were stored while it was being made.
    // Only messages stored since the `limit`-th latest user message no longer waiting can make the
    // page: at least `limit` messages sort at or after that time, and none sorts later than its own
    // time (a reply sorts at its question's, `question_at`, earlier than itself). With that bound,
    // and the agent's few waiting messages read once through their partial indexes, the read
    // follows the page's size, not the history's or the mailbox's; no row is joined to another.
    const inSession = sessionId === null ? sql`IS NULL` : sql`= ${sessionId}::uuid`;
    const { rows } = await sql<AgentMessageRow>`
      WITH waiting AS MATERIALIZED (
        SELECT message_id FROM agent_mailbox WHERE agent_id = ${agentId} AND status = 'queued'
        UNION ALL
        SELECT message_id FROM agent_mailbox WHERE agent_id = ${agentId} AND status = 'working'
      ), recent AS (
        SELECT m.id, m.agent_id, m.role, m.content, m.channel, m.session_id, m.created_at,
               coalesce(m.question_at, m.created_at) AS sort_at
          FROM agent_messages m
         WHERE m.agent_id = ${agentId} AND m.role IN ('user', 'assistant') AND m.session_id ${inSession}
           AND m.id NOT IN (SELECT message_id FROM waiting)
           -- the bound as a scalar subquery of its own: a plain parameter the index range takes
           -- (a coalesce around it is no index condition under row-level security, decision 0465)
           AND m.created_at >= (SELECT coalesce((
             SELECT u.created_at FROM agent_messages u
              WHERE u.agent_id = ${agentId} AND u.role = 'user' AND u.session_id ${inSession}
                AND u.id NOT IN (SELECT message_id FROM waiting)
              ORDER BY u.created_at DESC, u.id DESC
              OFFSET ${limit - 1} LIMIT 1), '-infinity'::timestamptz))
      )
      SELECT id, agent_id, role, content, channel, session_id, created_at FROM recent
       ORDER BY sort_at DESC, (role = 'assistant') DESC, created_at DESC, id DESC
       LIMIT ${limit}`.execute(this.db);
    return rows.map(toMessage).reverse();
  }
}
