import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { list, present } from './event-scheduler.shared.js';

/** The `list` action of event-scheduler. */
export const listAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'scheduledEvents'> }) =>
  action({
    name: 'list',
    description: "List the user's scheduled events, soonest first.",
    input: list,
    capabilities: [],
    run: async (ctx) => {
      const events = await uow.asUser(ctx.userId, (s) => s.scheduledEvents.list());
      return { events: events.map(present), count: events.length };
    },
  });
