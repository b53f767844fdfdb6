import { sql, type Kysely, type Selectable } from 'kysely';
import type { McpServerCheck, McpServerRecord, McpServerRepository, SystemMcpServers } from '../../../../application/ports/mcp-server-repository.port.js';
import type { McpToolInfo } from '../../../../domain/mcp/mcp-server.js';
import type { Database } from './database.js';
import type { AgentMcpServers } from './database.generated.js';

type Row = Selectable<AgentMcpServers>;

const toRecord = (r: Row): McpServerRecord => ({
  id: r.id,
  agentId: r.agent_id,
  userId: r.user_id,
  name: r.name,
  url: r.url,
  headerNames: r.header_names,
  headers: r.headers_key_id && r.headers_sealed ? { keyId: r.headers_key_id, ciphertext: r.headers_sealed } : null,
  allowedTools: r.allowed_tools,
  tools: (r.tools ?? []) as McpToolInfo[],
  status: r.status,
  statusError: r.status_error,
  checkedAt: r.checked_at as Date,
  createdAt: r.created_at as Date,
});

const listForAgent = async (db: Kysely<Database>, agentId: string): Promise<McpServerRecord[]> =>
  (await db.selectFrom('agent_mcp_servers').selectAll().where('agent_id', '=', agentId).orderBy('created_at').orderBy('id').execute()).map(toRecord);

/** The owner's servers; row-level security keeps every statement to the acting user's rows. */
export class KyselyMcpServerRepository implements McpServerRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async lockAgent(agentId: string): Promise<void> {
    // transaction-scoped: released at commit or rollback
    await sql`select pg_advisory_xact_lock(hashtextextended(${`mcp-servers:${agentId}`}, 0))`.execute(this.db);
  }

  async countForAgent(agentId: string): Promise<number> {
    const r = await this.db.selectFrom('agent_mcp_servers').select((eb) => eb.fn.countAll<string>().as('n')).where('agent_id', '=', agentId).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  listForAgent(agentId: string): Promise<McpServerRecord[]> {
    return listForAgent(this.db, agentId);
  }

  async get(agentId: string, serverId: string): Promise<McpServerRecord | null> {
    const row = await this.db.selectFrom('agent_mcp_servers').selectAll().where('agent_id', '=', agentId).where('id', '=', serverId).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async insert(r: Omit<McpServerRecord, 'createdAt'>): Promise<McpServerRecord | null> {
    const row = await this.db
      .insertInto('agent_mcp_servers')
      .values({
        id: r.id,
        agent_id: r.agentId,
        user_id: r.userId,
        name: r.name,
        url: r.url,
        header_names: r.headerNames,
        headers_key_id: r.headers?.keyId ?? null,
        headers_sealed: r.headers?.ciphertext ?? null,
        allowed_tools: r.allowedTools,
        tools: JSON.stringify(r.tools),
        status: r.status,
        status_error: r.statusError,
        checked_at: r.checkedAt,
      })
      .onConflict((oc) => oc.columns(['agent_id', 'name']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async recordCheck(agentId: string, serverId: string, c: McpServerCheck): Promise<McpServerRecord | null> {
    const row = await this.db
      .updateTable('agent_mcp_servers')
      .set({ tools: JSON.stringify(c.tools), status: c.status, status_error: c.statusError, checked_at: c.checkedAt })
      .where('agent_id', '=', agentId)
      .where('id', '=', serverId)
      .returningAll()
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async remove(agentId: string, serverId: string): Promise<boolean> {
    const r = await this.db.deleteFrom('agent_mcp_servers').where('agent_id', '=', agentId).where('id', '=', serverId).executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }
}

export class KyselySystemMcpServers implements SystemMcpServers {
  constructor(private readonly db: Kysely<Database>) {}

  listForAgent(agentId: string): Promise<McpServerRecord[]> {
    return listForAgent(this.db, agentId);
  }
}
