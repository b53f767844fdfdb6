import { inject, injectable } from 'tsyringe';
import type { Wallet } from '../../domain/wallets/wallet.js';
import type { Actor } from '../auth/actor.js';
import { WALLET_CUSTODY, type WalletCustody } from '../ports/wallet-custody.port.js';

/**
 * Creates the caller's one wallet through the custody port (POST /api/wallet `create`,
 * /api/wallet/create, /api/wallet/hosted): a generated key, or `privateKey` imported (validated
 * at the edge). A second create answers 400 `WALLET_EXISTS`, the first untouched.
 */
@injectable()
export class CreateWallet {
  constructor(@inject(WALLET_CUSTODY) private readonly custody: WalletCustody) {}

  async execute(actor: Pick<Actor, 'userId'>, opts: { privateKey?: `0x${string}` | undefined; label?: string | undefined } = {}): Promise<Wallet> {
    return this.custody.create(actor.userId, opts);
  }
}
