import { sql, type Kysely } from 'kysely';
import type {
  AgentMessage,
  AgentMessageRepository,
  NewAgentMessage,
  SystemAgentMessageRepository,
} from '../../../../application/ports/agent-message-repository.port.js';
import { isUuid } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';

const COLUMNS = ['id', 'agent_id', 'role', 'content', 'channel', 'session_id', 'created_at'] as const;

type Row = { id: string; agent_id: string; role: string; content: string; channel: string; session_id: string | null; created_at: Date };

const toMessage = (r: Row): AgentMessage => ({
  id: r.id,
  agentId: r.agent_id,
  role: r.role as AgentMessage['role'],
  content: r.content,
  channel: r.channel,
  sessionId: r.session_id,
  createdAt: r.created_at,
});

// clock_timestamp(), not now(): a reply stored in the same transaction as its question still sorts after it
const append = async (db: Kysely<Database>, m: NewAgentMessage): Promise<AgentMessage> =>
  toMessage(
    await db
      .insertInto('agent_messages')
      .values({ agent_id: m.agentId, user_id: m.userId, role: m.role, content: m.content, channel: m.channel, created_at: sql<Date>`clock_timestamp()` })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow(),
  );

/** The acting user's agents' messages: RLS scopes every statement to them. */
export class KyselyAgentMessageRepository implements AgentMessageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async page(agentId: string, limit: number, offset: number): Promise<{ messages: AgentMessage[]; total: number }> {
    if (!isUuid(agentId)) return { messages: [], total: 0 };
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('agent_messages')
        .select(COLUMNS)
        .where('agent_id', '=', agentId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.db.selectFrom('agent_messages').select((eb) => eb.fn.countAll<string>().as('n')).where('agent_id', '=', agentId).executeTakeFirstOrThrow(),
    ]);
    return { messages: rows.map(toMessage), total: Number(count.n) };
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

  async historyBefore(agentId: string, messageId: string, createdAt: Date, limit: number): Promise<AgentMessage[]> {
    const rows = await this.db
      .selectFrom('agent_messages')
      .select(COLUMNS)
      .where('agent_id', '=', agentId)
      .where('id', '!=', messageId)
      .where('role', 'in', ['user', 'assistant'])
      .where('created_at', '<=', createdAt)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toMessage).reverse();
  }
}
