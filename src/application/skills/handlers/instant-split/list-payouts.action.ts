import { z } from 'zod';
import { NotFoundError } from '../../../errors.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import type { WalletBalances } from '../../../ports/wallet-balances.port.js';
import { presentSettlement } from './instant-split-payouts.js';
import { action, id, iso } from '../skill-inputs.js';

/** The `list_payouts` action of instant-split. */
export const listPayoutsAction = ({ uow, chain }: { uow: UserWork<SkillsUserScope, 'splits' | 'payouts'>; chain: WalletBalances }) =>
  action({
    name: 'list_payouts',
    description: "Where each on-chain payout of a split rule's executions stands (pending, submitted, confirmed, failed), with its transaction hash.",
    input: z.strictObject({ action: z.literal('list_payouts'), splitId: id }),
    capabilities: [],
    run: async (ctx, input) => {
      const found = await uow.asUser(ctx.userId, async (s) => {
        if (!(await s.splits.getRule(input.splitId))) return null;
        const executions = await s.splits.listExecutions(input.splitId);
        return { executions, payouts: await s.payouts.listForExecutions(executions.map((e) => e.id)) };
      });
      if (!found) throw new NotFoundError('Split rule');
      return {
        splitId: input.splitId,
        executions: found.executions.map((e) => ({
          id: e.id, amountCents: e.amountCents, createdAt: iso(e.createdAt),
          settlement: (() => { const ps = found.payouts.filter((p) => p.executionId === e.id); return ps.length === 0 ? { onChain: false } : presentSettlement(ps, chain); })(),
        })),
      };
    },
  });
