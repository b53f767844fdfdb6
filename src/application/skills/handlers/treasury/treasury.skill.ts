import { inject, injectable } from 'tsyringe';
import { USER_WALLETS, type UserWallets } from '../../../ports/user-wallets.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { balancesAction } from './balances.action.js';
import { walletBalanceAction } from './wallet-balance.action.js';

/**
 * treasury: the user's balances as the other skills' stored state has them (escrow held and
 * released, split payouts and pending, recorded royalties), and the owner's wallet as the chain
 * has it (the wallet port: 501 NOT_CONFIGURED without a chain, 404 without a wallet).
 */
@injectable()
export class TreasurySkill implements SkillHandler {
  readonly slug = 'treasury';
  readonly version = '1.0.0';
  readonly capabilities = ['wallet'] as const;
  readonly actions: readonly SkillAction[];

  constructor(
    @inject(UNIT_OF_WORK) uow: UserWork<SkillsUserScope, 'escrows' | 'splits' | 'royalties'>,
    @inject(USER_WALLETS) wallets: UserWallets,
  ) {
    this.actions = [
      balancesAction({ uow }),
      walletBalanceAction({ wallets }),
    ];
  }
}
