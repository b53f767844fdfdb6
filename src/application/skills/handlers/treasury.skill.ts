import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { USER_WALLETS, type UserWallets } from '../../ports/user-wallets.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../ports/unit-of-work.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
import { action } from './skill-inputs.js';

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
    @inject(UNIT_OF_WORK) uow: UserWork<'escrows' | 'splits' | 'royalties'>,
    @inject(USER_WALLETS) wallets: UserWallets,
  ) {
    this.actions = [
      action({
        name: 'balances',
        description: "The user's balances in cents: escrow held and released, split amounts distributed and pending, royalties recorded.",
        input: z.strictObject({ action: z.literal('balances') }),
        capabilities: [],
        run: async (ctx) =>
          uow.asUser(ctx.userId, async (s) => {
            const escrow = await s.escrows.totals();
            const rules = await s.splits.listRules();
            const executions = await s.splits.listExecutions();
            const royalties = await s.royalties.list({});
            return {
              currency: 'USD',
              escrow: { heldCents: escrow.heldCents, releasedCents: escrow.releasedCents, held: escrow.held, released: escrow.released },
              splits: { distributedCents: executions.reduce((a, e) => a + e.amountCents, 0), pendingCents: rules.reduce((a, r) => a + r.pendingCents, 0), rules: rules.length },
              royalties: { totalCents: royalties.reduce((a, e) => a + e.amountCents, 0), entries: royalties.length },
            };
          }),
      }),
      action({
        name: 'wallet_balance',
        description: "The owner's wallet: its address and token balance as read on chain now.",
        input: z.strictObject({ action: z.literal('wallet_balance') }),
        capabilities: ['wallet'],
        run: async (ctx) => {
          ctx.requireCapability('wallet');
          return { wallet: await wallets.balance(ctx.userId, ctx.signal) };
        },
      }),
    ];
  }
}
