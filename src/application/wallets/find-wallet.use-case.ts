import { inject, injectable } from 'tsyringe';
import type { Wallet } from '../../domain/wallets/wallet.js';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { WalletsUserScope } from '../ports/scopes/wallets-scope.port.js';

/** The caller's wallet record only (no chain read), or null: GET /api/wallet/address. */
@injectable()
export class FindWallet {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<WalletsUserScope, 'wallets'>) {}

  async execute(actor: Pick<Actor, 'userId'>): Promise<Wallet | null> {
    return this.uow.asUser(actor.userId, (s) => s.wallets.get());
  }
}
