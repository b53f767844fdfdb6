import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { count, present } from './groupie-manager.shared.js';

/** The `list` action of groupie-manager. */
export const listAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'fans'> }) =>
  action({
    name: 'list',
    description: "List the user's fans, oldest first.",
    input: z.strictObject({ action: z.literal('list') }),
    capabilities: [],
    run: async (ctx) => {
      const fans = await uow.asUser(ctx.userId, (s) => s.fans.list());
      return { fans: fans.map(present), count: fans.length };
    },
  });
