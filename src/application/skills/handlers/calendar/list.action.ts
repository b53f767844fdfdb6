import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { instant, present } from './calendar.shared.js';

/** The `list` action of calendar. */
export const listAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'calendar'> }) =>
  action({
    name: 'list',
    description: 'List calendar entries overlapping the range from..to (either optional), soonest first.',
    input: z.strictObject({ action: z.literal('list'), from: instant.optional(), to: instant.optional() }),
    capabilities: [],
    run: async (ctx, input) => {
      const entries = await uow.asUser(ctx.userId, (s) => s.calendar.list({ ...(input.from ? { from: input.from } : {}), ...(input.to ? { to: input.to } : {}) }));
      return { entries: entries.map(present), count: entries.length };
    },
  });
