import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { present } from './demo-submitter.shared.js';

/** The `list` action of demo-submitter. */
export const listAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'demos'> }) =>
  action({
    name: 'list',
    description: "List the user's demo submissions, oldest first.",
    input: z.strictObject({ action: z.literal('list') }),
    capabilities: [],
    run: async (ctx) => {
      const demos = await uow.asUser(ctx.userId, (s) => s.demos.list());
      return { demos: demos.map(present), count: demos.length };
    },
  });
