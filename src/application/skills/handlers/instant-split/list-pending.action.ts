import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { presentRule } from './instant-split.shared.js';

/** The `list_pending` action of instant-split. */
export const listPendingAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'splits'> }) =>
  action({
    name: 'list_pending',
    description: 'List the split rules with an amount waiting to reach its threshold.',
    input: z.strictObject({ action: z.literal('list_pending') }),
    capabilities: [],
    run: async (ctx) => {
      const rules = (await uow.asUser(ctx.userId, (s) => s.splits.listRules())).filter((r) => r.pendingCents > 0);
      return { pending: rules.map(presentRule), count: rules.length, totalPendingCents: rules.reduce((a, r) => a + r.pendingCents, 0) };
    },
  });
