import type { Kysely } from 'kysely';
import type { NewWallet, WalletRepository } from '../../../../application/ports/wallet-repository.port.js';
import type { SealedSecret } from '../../../../application/ports/secret-box.port.js';
import type { Wallet } from '../../../../domain/wallets/wallet.js';
import type { Database } from './database.js';

const COLUMNS = ['id', 'user_id', 'address', 'provider', 'source', 'created_at'] as const;
const toWallet = (r: { id: string; user_id: string; address: string; provider: string; source: string; created_at: Date }): Wallet => ({
  id: r.id,
  userId: r.user_id,
  address: r.address,
  provider: r.provider,
  source: r.source as Wallet['source'],
  createdAt: r.created_at,
});

/** The acting user's wallet (RLS scoped). Reads of the record never select the sealed key. */
export class KyselyWalletRepository implements WalletRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(): Promise<Wallet | null> {
    const row = await this.db.selectFrom('wallets').select(COLUMNS).executeTakeFirst();
    return row ? toWallet(row) : null;
  }

  async insert(w: NewWallet): Promise<Wallet | null> {
    const row = await this.db
      .insertInto('wallets')
      .values({
        user_id: w.userId,
        address: w.address.toLowerCase(),
        provider: w.provider,
        provider_wallet_id: w.providerWalletId,
        source: w.source,
        label: w.label,
        key_id: w.sealedKey?.keyId ?? null,
        sealed_key: w.sealedKey?.ciphertext ?? null,
      })
      // the user's one wallet; an address already held by another account is a conflict too
      .onConflict((oc) => oc.doNothing())
      .returning(COLUMNS)
      .executeTakeFirst();
    return row ? toWallet(row) : null;
  }

  async sealedKey(): Promise<{ address: string; sealed: SealedSecret } | null> {
    const row = await this.db.selectFrom('wallets').select(['address', 'key_id', 'sealed_key']).executeTakeFirst();
    if (!row || row.key_id === null || row.sealed_key === null) return null;
    return { address: row.address, sealed: { keyId: row.key_id, ciphertext: row.sealed_key } };
  }
}
