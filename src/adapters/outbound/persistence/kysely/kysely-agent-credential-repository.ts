import { sql, type Kysely } from 'kysely';
import type { AgentCredentialName, AgentCredentialRepository } from '../../../../application/ports/agent-credential-repository.port.js';
import type { SealedSecret } from '../../../../application/ports/secret-box.port.js';
import { isUuid } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';

const NAME_COLUMNS = ['agent_id', 'name', 'created_at', 'updated_at'] as const;
const toName = (r: { agent_id: string; name: string; created_at: Date; updated_at: Date }): AgentCredentialName => ({
  agentId: r.agent_id,
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * The acting user's agent credentials (RLS scoped). app_user may insert and replace the sealed
 * value but never select it, so a set is an insert that yields on the key, then a replacement;
 * neither returns the sealed columns.
 */
export class KyselyAgentCredentialRepository implements AgentCredentialRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async set(input: { agentId: string; userId: string; name: string; sealed: SealedSecret }): Promise<AgentCredentialName> {
    const { keyId, ciphertext } = input.sealed;
    const inserted = await this.db
      .insertInto('agent_credentials')
      .values({ agent_id: input.agentId, user_id: input.userId, name: input.name, key_id: keyId, sealed: ciphertext })
      .onConflict((oc) => oc.columns(['agent_id', 'name']).doNothing())
      .returning(NAME_COLUMNS)
      .executeTakeFirst();
    if (inserted) return toName(inserted);
    // the row exists (it was there, or a concurrent set committed it first): the row lock orders writers
    const replaced = await this.db
      .updateTable('agent_credentials')
      .set({ key_id: keyId, sealed: ciphertext, updated_at: sql<Date>`now()` })
      .where('agent_id', '=', input.agentId)
      .where('name', '=', input.name)
      .returning(NAME_COLUMNS)
      .executeTakeFirstOrThrow();
    return toName(replaced);
  }

  async names(agentId: string | null): Promise<AgentCredentialName[]> {
    let q = this.db.selectFrom('agent_credentials').select(NAME_COLUMNS);
    if (agentId !== null) {
      if (!isUuid(agentId)) return [];
      q = q.where('agent_id', '=', agentId);
    }
    return (await q.orderBy('agent_id').orderBy('name').execute()).map(toName);
  }
}
