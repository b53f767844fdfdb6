import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { booking, present } from './booking-settlement.shared.js';

/** The `list` action of booking-settlement. */
export const listAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'escrows'> }) =>
  action({
    name: 'list',
    description: "List the user's booking escrows, oldest first.",
    input: z.strictObject({ action: z.literal('list') }),
    capabilities: [],
    run: async (ctx) => {
      const escrows = await uow.asUser(ctx.userId, (s) => s.escrows.list());
      return { escrows: escrows.map(present), count: escrows.length };
    },
  });
