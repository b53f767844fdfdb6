import type { Kysely } from 'kysely';
import { isUuid, type UserId } from '../../../../domain/shared/ids.js';
import type { ApiKeyRecord, ApiKeyRepository, NewApiKey } from '../../../../application/ports/api-key-repository.port.js';
import type { Database } from './database.js';

const COLUMNS = ['id', 'name', 'preview', 'created_at', 'last_used_at'] as const;
const toRecord = (r: { id: string; name: string; preview: string; created_at: Date; last_used_at: Date | null }): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  preview: r.preview,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});

export class KyselyApiKeyRepository implements ApiKeyRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly userId: UserId,
  ) {}

  async insert(k: NewApiKey): Promise<ApiKeyRecord> {
    const row = await this.db
      .insertInto('api_keys')
      .values({ user_id: this.userId, name: k.name, lookup_id: k.lookupId, key_hash: k.keyHash, preview: k.preview })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await this.db.selectFrom('api_keys').select(COLUMNS).orderBy('created_at', 'desc').execute()).map(toRecord);
  }

  async get(id: string): Promise<ApiKeyRecord | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.selectFrom('api_keys').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const r = await this.db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
    return r.numDeletedRows > 0n;
  }
}
