import { z } from 'zod';
import { NotFoundError } from '../../../errors.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, id } from '../skill-inputs.js';

/** The `get_balance` action of instant-split. */
export const getBalanceAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'splits'> }) =>
  action({
    name: 'get_balance',
    description: 'Totals paid out per recipient, for one split rule (splitId) or all of them, and what is still pending.',
    input: z.strictObject({ action: z.literal('get_balance'), splitId: id.optional() }),
    capabilities: [],
    run: async (ctx, input) => {
      const { rules, executions } = await uow.asUser(ctx.userId, async (s) => {
        const rules = input.splitId === undefined ? await s.splits.listRules() : [await s.splits.getRule(input.splitId)].filter((r) => r !== null);
        return { rules, executions: rules.length === 0 ? [] : await s.splits.listExecutions(input.splitId) };
      });
      if (input.splitId !== undefined && rules.length === 0) throw new NotFoundError('Split rule');
      const byRecipient = new Map<string, { recipientAddress: string; amountCents: number }>();
      for (const a of executions.flatMap((e) => e.allocations)) {
        const row = byRecipient.get(a.recipientAddress) ?? { recipientAddress: a.recipientAddress, amountCents: 0 };
        row.amountCents += a.amountCents;
        byRecipient.set(a.recipientAddress, row);
      }
      return {
        splitId: input.splitId ?? null,
        distributedCents: executions.reduce((a, e) => a + e.amountCents, 0),
        pendingCents: rules.reduce((a, r) => a + r.pendingCents, 0),
        executions: executions.length,
        recipients: [...byRecipient.values()],
      };
    },
  });
