import type { Kysely } from 'kysely';
import type { AgentMessage, AgentMessageRepository } from '../../../../application/ports/agent-message-repository.port.js';
import { isUuid } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';

/** The acting user's agents' messages: RLS scopes every statement to them. */
export class KyselyAgentMessageRepository implements AgentMessageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async page(agentId: string, limit: number, offset: number): Promise<{ messages: AgentMessage[]; total: number }> {
    if (!isUuid(agentId)) return { messages: [], total: 0 };
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('agent_messages')
        .select(['id', 'agent_id', 'role', 'content', 'channel', 'session_id', 'created_at'])
        .where('agent_id', '=', agentId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.db.selectFrom('agent_messages').select((eb) => eb.fn.countAll<string>().as('n')).where('agent_id', '=', agentId).executeTakeFirstOrThrow(),
    ]);
    return {
      messages: rows.map((r) => ({
        id: r.id,
        agentId: r.agent_id,
        role: r.role as AgentMessage['role'],
        content: r.content,
        channel: r.channel,
        sessionId: r.session_id,
        createdAt: r.created_at,
      })),
      total: Number(count.n),
    };
  }
}
