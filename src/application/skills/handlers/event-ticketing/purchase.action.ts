import { z } from 'zod';
import { NotFoundError } from '../../../errors.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, id, text } from '../skill-inputs.js';
import { TicketsSoldOutError, presentTicket } from './event-ticketing.shared.js';

/** The `purchase` action of event-ticketing. */
export const purchaseAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'ticketing'> }) =>
  action({
    name: 'purchase',
    description: 'Buy one ticket of a tier of an event for an e-mail address, while seats are left.',
    input: z.strictObject({ action: z.literal('purchase'), eventId: id, email: z.email().max(320), tier: text(100) }),
    capabilities: [],
    run: async (ctx, input) =>
      uow.asUser(ctx.userId, async (s) => {
        const event = await s.ticketing.getEvent(input.eventId);
        if (!event || !event.tiers.some((t) => t.tier === input.tier)) throw new NotFoundError('Event tier');
        const seat = await s.ticketing.takeSeat(event.id, input.tier);
        if (!seat) throw new TicketsSoldOutError(event.id, input.tier);
        const ticket = await s.ticketing.insertTicket(ctx.userId, { eventId: event.id, tier: input.tier, email: input.email, priceCents: seat.priceCents });
        return { ticket: presentTicket(ticket) };
      }),
  });
