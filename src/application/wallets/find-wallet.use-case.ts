import { inject, injectable } from 'tsyringe';
import { SeedExportForbiddenError, type Wallet } from '../../domain/wallets/wallet.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';

/** The caller's wallet record only (no chain read): GET /api/wallet/address, `get_seed`. */
@injectable()
export class FindWallet {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<'wallets'>) {}

  async execute(actor: Pick<Actor, 'userId'>): Promise<Wallet | null> {
    return this.uow.asUser(actor.userId, (s) => s.wallets.get());
  }

  /** `get_seed`: the wallet's metadata; 404 without one. The key itself never leaves custody. */
  async seedMetadata(actor: Pick<Actor, 'userId'>): Promise<Wallet> {
    const wallet = await this.execute(actor);
    if (!wallet) throw new NotFoundError('Wallet');
    return wallet;
  }

  /** `export_seed`: refused always, wallet or not (spec: 403 always). */
  exportSeed(): never {
    throw new SeedExportForbiddenError();
  }
}
