import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, text } from '../skill-inputs.js';
import { tiers, presentEvent } from './event-ticketing.shared.js';

/** The `create_event` action of event-ticketing. */
export const createEventAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'ticketing'> }) =>
  action({
    name: 'create_event',
    description: 'Create a ticketed event with tiers, each with a price (dollars) and a capacity.',
    input: z.strictObject({ action: z.literal('create_event'), name: text(200), tiers }),
    capabilities: [],
    run: async (ctx, input) => {
      const event = await uow.asUser(ctx.userId, (s) =>
        s.ticketing.insertEvent(ctx.userId, { name: input.name, tiers: input.tiers.map((t) => ({ tier: t.tier, priceCents: t.price, capacity: t.capacity })) }),
      );
      return { event: presentEvent(event) };
    },
  });
