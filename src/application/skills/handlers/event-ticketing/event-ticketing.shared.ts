import { z } from 'zod';
import { DomainError } from '../../../../domain/shared/domain-error.js';
import type { Ticket, TicketedEvent } from '../../../ports/ticketing-repository.port.js';
import { iso, money, text } from '../skill-inputs.js';

/** No seat of the tier is left. HTTP 409. */
export class TicketsSoldOutError extends DomainError {
  constructor(eventId: string, tier: string) {
    super('TICKETS_SOLD_OUT', `The ${tier} tier is sold out`, { eventId, tier });
  }
}

export const tiers = z
  .array(z.strictObject({ tier: text(100), price: money, capacity: z.number().int().positive().max(1_000_000) }))
  .min(1)
  .max(20)
  .refine((ts) => new Set(ts.map((t) => t.tier)).size === ts.length, 'tier names must be unique');

export const presentEvent = (e: TicketedEvent) => ({
  eventId: e.id, name: e.name, createdAt: iso(e.createdAt),
  tiers: e.tiers.map((t) => ({ tier: t.tier, priceCents: t.priceCents, capacity: t.capacity, sold: t.sold, remaining: t.capacity - t.sold })),
});

export const presentTicket = (t: Ticket) => ({ ticketId: t.id, eventId: t.eventId, tier: t.tier, email: t.email, priceCents: t.priceCents, currency: 'USD', createdAt: iso(t.createdAt) });
