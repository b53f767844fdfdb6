import { inject, injectable } from 'tsyringe';
import { UNIT_OF_WORK, type UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { WALLET_BALANCES, type WalletBalances } from '../../../ports/wallet-balances.port.js';
import { WALLET_SIGNER, type WalletSigner } from '../../../ports/wallet-signer.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { SendPayouts } from '../../../wallets/send-payouts.use-case.js';
import { createSplitRuleAction } from './create-split-rule.action.js';
import { listPendingAction } from './list-pending.action.js';
import { listAction } from './list.action.js';
import { executeSplitAction } from './execute-split.action.js';
import { listPayoutsAction } from './list-payouts.action.js';
import { getBalanceAction } from './get-balance.action.js';
import { simulateAction } from './simulate.action.js';

/**
 * instant-split: stored split rules. `execute_split` adds an amount to the rule's pending total;
 * once the pending total reaches the rule's threshold it is split (largest remainder, parts summing
 * exactly) and recorded as an execution, and pending starts again from zero. With the `wallet`
 * capability the execution also pays each recipient on chain from the owner's wallet (docs/decisions/0087-wallet-capability-for-skills.md).
 */
@injectable()
export class InstantSplitSkill implements SkillHandler {
  readonly slug = 'instant-split';
  readonly version = '1.0.0';
  readonly capabilities = ['payments', 'wallet'] as const;
  readonly actions: readonly SkillAction[];

  constructor(
    @inject(UNIT_OF_WORK) uow: UserWork<SkillsUserScope, 'splits' | 'wallets' | 'payouts' | 'jobs'>,
    @inject(WALLET_SIGNER) signer: WalletSigner,
    @inject(WALLET_BALANCES) chain: WalletBalances,
    @inject(SendPayouts) sendPayouts: SendPayouts,
  ) {
    this.actions = [
      createSplitRuleAction({ uow }),
      listPendingAction({ uow }),
      listAction({ uow }),
      executeSplitAction({ uow, signer, chain, sendPayouts }),
      listPayoutsAction({ uow, chain }),
      getBalanceAction({ uow }),
      simulateAction({ uow }),
    ];
  }
}
