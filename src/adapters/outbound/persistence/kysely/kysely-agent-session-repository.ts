import { sql, type Kysely } from 'kysely';
import type { AgentMessage } from '../../../../application/ports/agent-message-repository.port.js';
import type { AgentSession, AgentSessionRepository } from '../../../../application/ports/agent-session-repository.port.js';
import { isUuid } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';

type SessionRow = { id: string; agent_id: string; created_at: Date; message_count: number; last_message_at: Date | null };

const toSession = (r: SessionRow): AgentSession => ({
  id: r.id,
  agentId: r.agent_id,
  createdAt: r.created_at,
  messageCount: Number(r.message_count),
  lastMessageAt: r.last_message_at,
});

/** The acting user's sessions: RLS scopes every statement (sessions and messages) to them. */
export class KyselyAgentSessionRepository implements AgentSessionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private select() {
    return this.db
      .selectFrom('agent_sessions as s')
      .select(['s.id', 's.agent_id', 's.created_at'])
      .select((eb) => [
        eb.selectFrom('agent_messages as m').whereRef('m.session_id', '=', 's.id').select(sql<number>`count(*)::int`.as('n')).as('message_count'),
        eb.selectFrom('agent_messages as m').whereRef('m.session_id', '=', 's.id').select(sql<Date | null>`max(m.created_at)`.as('t')).as('last_message_at'),
      ]);
  }

  async create(agentId: string, userId: string): Promise<AgentSession> {
    const r = await this.db.insertInto('agent_sessions').values({ agent_id: agentId, user_id: userId }).returning(['id', 'agent_id', 'created_at']).executeTakeFirstOrThrow();
    return { id: r.id, agentId: r.agent_id, createdAt: r.created_at, messageCount: 0, lastMessageAt: null };
  }

  async list(agentId: string | null, limit: number): Promise<AgentSession[]> {
    let q = this.select();
    if (agentId !== null) {
      if (!isUuid(agentId)) return [];
      q = q.where('s.agent_id', '=', agentId);
    }
    const rows = await q.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(limit).execute();
    return rows.map((r) => toSession(r as SessionRow));
  }

  async get(sessionId: string): Promise<AgentSession | null> {
    if (!isUuid(sessionId)) return null;
    const r = await this.select().where('s.id', '=', sessionId).executeTakeFirst();
    return r ? toSession(r as SessionRow) : null;
  }

  async latest(agentId: string): Promise<AgentSession | null> {
    if (!isUuid(agentId)) return null;
    const r = await this.select().where('s.agent_id', '=', agentId).orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(1).executeTakeFirst();
    return r ? toSession(r as SessionRow) : null;
  }

  async messages(sessionId: string, limit: number): Promise<AgentMessage[]> {
    if (!isUuid(sessionId)) return [];
    const rows = await this.db
      .selectFrom('agent_messages')
      .select(['id', 'agent_id', 'role', 'content', 'channel', 'session_id', 'created_at'])
      .where('session_id', '=', sessionId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse().map((r) => ({
      id: r.id,
      agentId: r.agent_id,
      role: r.role as AgentMessage['role'],
      content: r.content,
      channel: r.channel,
      sessionId: r.session_id,
      createdAt: r.created_at,
    }));
  }
}
