import { sql, type Kysely } from 'kysely';
import type { ByokKeyRepository, StoredByokKey } from '../../../../application/ports/byok-key-repository.port.js';
import { isByokProvider, type ByokProvider } from '../../../../domain/billing/byok.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';

/** The acting user's sealed provider keys (RLS scoped; the user id is written for the policy's check). */
export class KyselyByokKeyRepository implements ByokKeyRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly userId: UserId,
  ) {}

  async put(key: StoredByokKey): Promise<void> {
    await this.db
      .insertInto('byok_keys')
      .values({ user_id: this.userId, provider: key.provider, key_id: key.sealed.keyId, ciphertext: key.sealed.ciphertext })
      .onConflict((oc) =>
        oc.columns(['user_id', 'provider']).doUpdateSet({
          key_id: (eb) => eb.ref('excluded.key_id'),
          ciphertext: (eb) => eb.ref('excluded.ciphertext'),
          updated_at: sql<Date>`now()`,
        }),
      )
      .execute();
  }

  async list(): Promise<StoredByokKey[]> {
    const rows = await this.db.selectFrom('byok_keys').select(['provider', 'key_id', 'ciphertext']).orderBy('provider').execute();
    return rows
      .filter((r): r is typeof r & { provider: ByokProvider } => isByokProvider(r.provider))
      .map((r) => ({ provider: r.provider, sealed: { keyId: r.key_id, ciphertext: r.ciphertext } }));
  }

  async delete(provider?: ByokProvider): Promise<number> {
    let q = this.db.deleteFrom('byok_keys').where('user_id', '=', this.userId);
    if (provider) q = q.where('provider', '=', provider);
    const r = await q.executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
