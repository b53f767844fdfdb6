import { sql, type Kysely } from 'kysely';
import type { AgentMemory, AgentMemoryRepository, SystemAgentMemoryRepository } from '../../../../application/ports/agent-memory-repository.port.js';
import type { MemoryEntries } from '../../../../domain/memory/memory-limits.js';
import { isUuid, type UserId } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';

export const toEntries = (rows: { key: string; value: unknown }[]): Record<string, unknown> => {
  // a key such as "__proto__" must become an own property, not the prototype
  const entries: Record<string, unknown> = Object.create(null);
  for (const r of rows) entries[r.key] = r.value;
  return { ...entries };
};

/** The acting user's agents' memory: RLS scopes every statement to them. */
export class KyselyAgentMemoryRepository implements AgentMemoryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async read(agentId: string): Promise<AgentMemory> {
    if (!isUuid(agentId)) return { entries: {}, lastUpdated: null };
    const rows = await this.db.selectFrom('agent_memory').select(['key', 'value', 'updated_at']).where('agent_id', '=', agentId).orderBy('key').execute();
    const lastUpdated = rows.reduce<Date | null>((max, r) => (max === null || r.updated_at > max ? r.updated_at : max), null);
    return { entries: toEntries(rows), lastUpdated };
  }

  async lockForWrite(agentId: string): Promise<void> {
    // transaction-scoped: released at commit or rollback
    await sql`select pg_advisory_xact_lock(hashtextextended(${`agent-memory:${agentId}`}, 0))`.execute(this.db);
  }

  async keyCounts(agentId: string, keys: readonly string[]): Promise<{ stored: number; absent: number }> {
    const r = await this.db
      .selectFrom('agent_memory')
      .where('agent_id', '=', agentId)
      .select((eb) => [eb.fn.countAll<string>().as('stored'), sql<string>`count(*) filter (where key = any(${[...keys]}::text[]))`.as('present')])
      .executeTakeFirstOrThrow();
    return { stored: Number(r.stored), absent: new Set(keys).size - Number(r.present) };
  }

  async upsert(agentId: string, userId: UserId, entries: MemoryEntries, at: Date): Promise<void> {
    if (entries.length === 0) return;
    await this.db
      .insertInto('agent_memory')
      .values(entries.map(([key, value]) => ({ agent_id: agentId, user_id: userId, key, value: JSON.stringify(value), updated_at: at })))
      .onConflict((oc) => oc.columns(['agent_id', 'key']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updated_at: eb.ref('excluded.updated_at') })))
      .execute();
  }
}

export class KyselySystemAgentMemoryRepository implements SystemAgentMemoryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async entriesOf(agentId: string): Promise<Record<string, unknown>> {
    if (!isUuid(agentId)) return {};
    return toEntries(await this.db.selectFrom('agent_memory').select(['key', 'value']).where('agent_id', '=', agentId).orderBy('key').execute());
  }

  async clearAllOf(userId: UserId): Promise<number> {
    const r = await this.db.deleteFrom('agent_memory').where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
