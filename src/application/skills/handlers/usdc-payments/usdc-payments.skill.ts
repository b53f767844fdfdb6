import { inject, injectable } from 'tsyringe';
import { USER_WALLETS, type UserWallets } from '../../../ports/user-wallets.port.js';
import type { SkillHandler } from '../../skill-handler.js';
import { balanceAction } from './balance.action.js';
import { sendAction } from './send.action.js';
import { paymentStatusAction } from './payment-status.action.js';
import { idempotencyKey } from './usdc-payments.shared.js';

/**
 * usdc-payments: the user's wallet. No spec shape; ours is `{action: "balance"}`,
 * `{action: "send", to, amount, idempotencyKey?}` (without a key, an identical send within ten
 * minutes is the same payment) and `{action: "payment_status", paymentId | idempotencyKey}`.
 */
@injectable()
export class UsdcPaymentsSkill implements SkillHandler {
  readonly slug = 'usdc-payments';
  readonly version = '1.0.0';
  readonly capabilities = ['network', 'wallet', 'payments'] as const;
  readonly actions;

  constructor(@inject(USER_WALLETS) wallets: UserWallets) {
    this.actions = [
      balanceAction({ wallets }),
      sendAction({ wallets }),
      paymentStatusAction({ wallets }),
    ];
  }
}
