import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { UNIT_OF_WORK, type UserWork } from '../../ports/unit-of-work.port.js';
import { SkillNotConfiguredError, type SkillAction, type SkillHandler } from '../skill-handler.js';
import { action } from './skill-inputs.js';

/**
 * treasury: the user's balances as the other skills' stored state has them (escrow held and
 * released, split payouts and pending, recorded royalties). An on-chain wallet balance needs
 * wallets, which this service does not have yet: NOT_CONFIGURED.
 */
@injectable()
export class TreasurySkill implements SkillHandler {
  readonly slug = 'treasury';
  readonly version = '1.0.0';
  readonly capabilities = ['wallet'] as const;
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<'escrows' | 'splits' | 'royalties'>) {
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
        description: 'The on-chain wallet balance (not available until wallets are configured).',
        input: z.strictObject({ action: z.literal('wallet_balance') }),
        capabilities: ['wallet'],
        run: async (ctx) => {
          ctx.requireCapability('wallet');
          throw new SkillNotConfiguredError('An on-chain wallet');
        },
      }),
    ];
  }
}
