import { inject, injectable } from 'tsyringe';
import type { Wallet } from '../../domain/wallets/wallet.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { WalletsUserScope } from '../ports/scopes/wallets-scope.port.js';

/** `get_seed`: the wallet's metadata; 404 without one. The key itself never leaves custody. */
@injectable()
export class GetSeedMetadata {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<WalletsUserScope, 'wallets'>) {}

  async execute(actor: Pick<Actor, 'userId'>): Promise<Wallet> {
    const wallet = await this.uow.asUser(actor.userId, (s) => s.wallets.get());
    if (!wallet) throw new NotFoundError('Wallet');
    return wallet;
  }
}
