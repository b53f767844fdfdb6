import { sql, type Kysely } from 'kysely';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { WalletIdentityRepository, WalletNonceRepository } from '../../../../application/ports/wallet-sign-in-repositories.port.js';
import type { Database } from './database.js';

/** How many long-expired nonces one issue sweeps: bounded work per request, the table stays small. */
const SWEEP_BATCH = 100;

export class KyselyWalletNonces implements WalletNonceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async issue(nonceHash: Buffer, expiresAt: Date, now: Date): Promise<void> {
    await this.db.insertInto('wallet_nonces').values({ nonce_hash: nonceHash, expires_at: expiresAt }).execute();
    await this.db
      .deleteFrom('wallet_nonces')
      .where('nonce_hash', 'in', (q) => q.selectFrom('wallet_nonces').select('nonce_hash').where('expires_at', '<', now).limit(SWEEP_BATCH))
      .execute();
  }

  /** One conditional UPDATE: two concurrent consumers cannot both win. */
  async consume(nonceHash: Buffer, now: Date): Promise<boolean> {
    const r = await this.db
      .updateTable('wallet_nonces')
      .set({ used_at: sql`now()` })
      .where('nonce_hash', '=', nonceHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }
}

export class KyselyWalletIdentities implements WalletIdentityRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findUserId(address: string): Promise<UserId | null> {
    const row = await this.db.selectFrom('wallet_identities').select('user_id').where('address', '=', address).executeTakeFirst();
    return (row?.user_id as UserId | undefined) ?? null;
  }

  async link(address: string, userId: UserId, chainId: number): Promise<UserId> {
    await this.db.insertInto('wallet_identities').values({ address, user_id: userId, chain_id: chainId }).onConflict((oc) => oc.column('address').doNothing()).execute();
    return (await this.findUserId(address)) ?? userId;
  }

  async touch(address: string): Promise<void> {
    await this.db.updateTable('wallet_identities').set({ last_sign_in_at: sql`now()` }).where('address', '=', address).execute();
  }
}
