import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';

/** The `balances` action of treasury. */
export const balancesAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'escrows' | 'splits' | 'royalties'> }) =>
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
  });
