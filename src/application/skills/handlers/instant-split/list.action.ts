import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { presentRule } from './instant-split.shared.js';

/** The `list` action of instant-split. */
export const listAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'splits'> }) =>
  action({
    name: 'list',
    description: "List all the user's split rules.",
    input: z.strictObject({ action: z.literal('list') }),
    capabilities: [],
    run: async (ctx) => {
      const rules = await uow.asUser(ctx.userId, (s) => s.splits.listRules());
      return { splitRules: rules.map(presentRule), count: rules.length };
    },
  });
