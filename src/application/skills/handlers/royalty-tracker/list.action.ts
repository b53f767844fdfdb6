import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { filter, present } from './royalty-tracker.shared.js';

/** The `list` action of royalty-tracker. */
export const listAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'royalties'> }) =>
  action({
    name: 'list',
    description: 'List the recorded royalty entries, oldest first, optionally only one source or period.',
    input: z.strictObject({ action: z.literal('list'), ...filter }),
    capabilities: [],
    run: async (ctx, input) => {
      const entries = await uow.asUser(ctx.userId, (s) => s.royalties.list({ source: input.source, period: input.period }));
      return { entries: entries.map(present), count: entries.length };
    },
  });
