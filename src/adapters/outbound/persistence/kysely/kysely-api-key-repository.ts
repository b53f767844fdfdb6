import { sql, type Kysely } from 'kysely';
import type { ApiKeyLimits } from '../../../../domain/accounts/api-key-limits.js';
import { isUuid, type UserId } from '../../../../domain/shared/ids.js';
import type { ApiKeyRecord, ApiKeyRepository, NewApiKey } from '../../../../application/ports/api-key-repository.port.js';
import type { Database } from './database.js';

const COLUMNS = ['id', 'name', 'preview', 'created_at', 'last_used_at', 'daily_units', 'models', 'expires_at', 'rate_limit'] as const;
const KEY_COLUMNS = COLUMNS.map((c) => `k.${c}` as const);

type Row = {
  id: string;
  name: string;
  preview: string;
  created_at: Date;
  last_used_at: Date | null;
  daily_units: number | null;
  models: string[] | null;
  expires_at: Date | null;
  rate_limit: number | null;
  units_used: number;
};

const toRecord = (r: Row): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  preview: r.preview,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  limits: { dailyUnits: r.daily_units, models: r.models, expiresAt: r.expires_at, rateLimit: r.rate_limit },
  unitsUsed: r.units_used,
});

/** The limits as columns: only those named (undefined leaves a column as it is). */
function limitColumns(l: Partial<ApiKeyLimits>) {
  return {
    ...(l.dailyUnits !== undefined ? { daily_units: l.dailyUnits } : {}),
    ...(l.models !== undefined ? { models: l.models === null ? null : [...l.models] } : {}),
    ...(l.expiresAt !== undefined ? { expires_at: l.expiresAt } : {}),
    ...(l.rateLimit !== undefined ? { rate_limit: l.rateLimit } : {}),
  };
}

export class KyselyApiKeyRepository implements ApiKeyRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly userId: UserId,
  ) {}

  async insert(k: NewApiKey): Promise<ApiKeyRecord> {
    const row = await this.db
      .insertInto('api_keys')
      .values({ user_id: this.userId, name: k.name, lookup_id: k.lookupId, key_hash: k.keyHash, preview: k.preview, ...limitColumns(k.limits) })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toRecord({ ...row, units_used: 0 });
  }

  async list(day: string): Promise<ApiKeyRecord[]> {
    return (await this.withUsage(day).orderBy('k.created_at', 'desc').execute()).map(toRecord);
  }

  async get(id: string, day: string): Promise<ApiKeyRecord | null> {
    if (!isUuid(id)) return null;
    const row = await this.withUsage(day).where('k.id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async update(id: string, change: Partial<ApiKeyLimits>, day: string): Promise<ApiKeyRecord | null> {
    if (!isUuid(id)) return null;
    const columns = limitColumns(change);
    if (Object.keys(columns).length > 0) {
      const r = await this.db.updateTable('api_keys').set(columns).where('id', '=', id).executeTakeFirst();
      if (r.numUpdatedRows === 0n) return null;
    }
    return this.get(id, day);
  }

  async delete(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const r = await this.db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
    return r.numDeletedRows > 0n;
  }

  /** The keys with the units each spent on `day` (0 without a row: no call that day). */
  private withUsage(day: string) {
    return this.db
      .selectFrom('api_keys as k')
      .leftJoin('api_key_usage as u', (j) => j.onRef('u.key_id', '=', 'k.id').on('u.day', '=', sql<Date>`${day}::date`))
      .select([...KEY_COLUMNS, sql<number>`coalesce(u.used_units, 0)`.as('units_used')]);
  }
}
