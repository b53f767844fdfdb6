import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, money } from '../skill-inputs.js';
import { splits, presentRule } from './instant-split.shared.js';

/** The `create_split_rule` action of instant-split. */
export const createSplitRuleAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'splits'> }) =>
  action({
    name: 'create_split_rule',
    description: 'Create a split rule: recipients with percentages summing to exactly 100, paid out once the pending amount reaches the threshold.',
    input: z.strictObject({ action: z.literal('create_split_rule'), splits, threshold: money.optional() }),
    capabilities: [],
    run: async (ctx, input) => {
      const rule = await uow.asUser(ctx.userId, (s) => s.splits.insertRule(ctx.userId, { splits: input.splits, thresholdCents: input.threshold ?? 0 }));
      return { splitRule: presentRule(rule) };
    },
  });
