import { z } from 'zod';
import { NotFoundError } from '../../../errors.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, id } from '../skill-inputs.js';
import { tiers, presentEvent, presentTicket } from './event-ticketing.shared.js';

/** The `get` action of event-ticketing. */
export const getAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'ticketing'> }) =>
  action({
    name: 'get',
    description: 'An event with its tiers (sold and remaining seats) and the tickets sold.',
    input: z.strictObject({ action: z.literal('get'), eventId: id }),
    capabilities: [],
    run: async (ctx, input) =>
      uow.asUser(ctx.userId, async (s) => {
        const event = await s.ticketing.getEvent(input.eventId);
        if (!event) throw new NotFoundError('Event');
        return { event: presentEvent(event), tickets: (await s.ticketing.tickets(event.id)).map(presentTicket) };
      }),
  });
