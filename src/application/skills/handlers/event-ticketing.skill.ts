import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { DomainError } from '../../../domain/shared/domain-error.js';
import { NotFoundError } from '../../errors.js';
import type { Ticket, TicketedEvent } from '../../ports/ticketing-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../ports/unit-of-work.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
import { action, id, iso, money, text } from './skill-inputs.js';

/** No seat of the tier is left. HTTP 409. */
export class TicketsSoldOutError extends DomainError {
  constructor(eventId: string, tier: string) {
    super('TICKETS_SOLD_OUT', `The ${tier} tier is sold out`, { eventId, tier });
  }
}

const tiers = z
  .array(z.strictObject({ tier: text(100), price: money, capacity: z.number().int().positive().max(1_000_000) }))
  .min(1)
  .max(20)
  .refine((ts) => new Set(ts.map((t) => t.tier)).size === ts.length, 'tier names must be unique');

/**
 * event-ticketing: the user's ticketed events, each with tiers of a price and a capacity.
 * `purchase` takes a seat with one conditional update, so the last seat goes to exactly one buyer.
 * No payment is taken here: the ticket records the tier's price.
 */
@injectable()
export class EventTicketingSkill implements SkillHandler {
  readonly slug = 'event-ticketing';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<'ticketing'>) {
    this.actions = [
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
      }),
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
      }),
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
      }),
      action({
        name: 'list',
        description: "List the user's ticketed events with their tiers.",
        input: z.strictObject({ action: z.literal('list') }),
        capabilities: [],
        run: async (ctx) => {
          const events = await uow.asUser(ctx.userId, (s) => s.ticketing.listEvents());
          return { events: events.map(presentEvent), count: events.length };
        },
      }),
    ];
  }
}

const presentEvent = (e: TicketedEvent) => ({
  eventId: e.id, name: e.name, createdAt: iso(e.createdAt),
  tiers: e.tiers.map((t) => ({ tier: t.tier, priceCents: t.priceCents, capacity: t.capacity, sold: t.sold, remaining: t.capacity - t.sold })),
});

const presentTicket = (t: Ticket) => ({ ticketId: t.id, eventId: t.eventId, tier: t.tier, email: t.email, priceCents: t.priceCents, currency: 'USD', createdAt: iso(t.createdAt) });
