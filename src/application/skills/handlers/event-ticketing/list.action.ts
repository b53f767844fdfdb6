import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { tiers, presentEvent } from './event-ticketing.shared.js';

/** The `list` action of event-ticketing. */
export const listAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'ticketing'> }) =>
  action({
    name: 'list',
    description: "List the user's ticketed events with their tiers.",
    input: z.strictObject({ action: z.literal('list') }),
    capabilities: [],
    run: async (ctx) => {
      const events = await uow.asUser(ctx.userId, (s) => s.ticketing.listEvents());
      return { events: events.map(presentEvent), count: events.length };
    },
  });
