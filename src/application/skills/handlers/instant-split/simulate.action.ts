import { z } from 'zod';
import { grossFromStreams, splitAmount } from '../../../../domain/skills/split.js';
import { NotFoundError } from '../../../errors.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, id } from '../skill-inputs.js';
import { splits, rate, presentAllocation } from './instant-split.shared.js';

/** The `simulate` action of instant-split. */
export const simulateAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'splits'> }) =>
  action({
    name: 'simulate',
    description: 'Compute gross revenue from streams × per-stream rate (fractions of a cent dropped) and, given splits or a splitId, its exact split; nothing is stored.',
    input: z.strictObject({ action: z.literal('simulate'), streams: z.number().int().nonnegative().max(1e12), rate, splits: splits.optional(), splitId: id.optional() }),
    capabilities: [],
    run: async (ctx, input) => {
      const grossCents = grossFromStreams(input.streams, input.rate);
      let shares = input.splits;
      if (!shares && input.splitId !== undefined) {
        const rule = await uow.asUser(ctx.userId, (s) => s.splits.getRule(input.splitId!));
        if (!rule) throw new NotFoundError('Split rule');
        shares = rule.splits;
      }
      return { streams: input.streams, grossCents, currency: 'USD', allocations: shares ? splitAmount(grossCents, shares).map(presentAllocation) : null };
    },
  });
