import { sql, type Kysely, type Selectable } from 'kysely';
import type { Ticket, TicketedEvent, TicketingRepository, TicketTier } from '../../../../application/ports/ticketing-repository.port.js';
import type { Database, SkillTicketsTable } from './database.js';
import { isUuid } from './skill-state-ids.js';

export class KyselyTicketingRepository implements TicketingRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertEvent(userId: string, e: { name: string; tiers: Omit<TicketTier, 'sold'>[] }): Promise<TicketedEvent> {
    const ev = await this.db.insertInto('skill_ticket_events').values({ user_id: userId, name: e.name }).returningAll().executeTakeFirstOrThrow();
    await this.db
      .insertInto('skill_ticket_tiers')
      .values(e.tiers.map((t) => ({ event_id: ev.id, user_id: userId, tier: t.tier, price_cents: t.priceCents, capacity: t.capacity })))
      .execute();
    return { id: ev.id, name: ev.name, createdAt: ev.created_at, tiers: e.tiers.map((t) => ({ ...t, sold: 0 })) };
  }

  async getEvent(id: string): Promise<TicketedEvent | null> {
    if (!isUuid(id)) return null;
    const ev = await this.db.selectFrom('skill_ticket_events').selectAll().where('id', '=', id).executeTakeFirst();
    if (!ev) return null;
    return { id: ev.id, name: ev.name, createdAt: ev.created_at, tiers: await this.tiers([ev.id]).then((m) => m.get(ev.id) ?? []) };
  }

  async listEvents(): Promise<TicketedEvent[]> {
    const events = await this.db.selectFrom('skill_ticket_events').selectAll().orderBy('created_at').orderBy('id').execute();
    const tiers = await this.tiers(events.map((e) => e.id));
    return events.map((ev) => ({ id: ev.id, name: ev.name, createdAt: ev.created_at, tiers: tiers.get(ev.id) ?? [] }));
  }

  private async tiers(eventIds: string[]): Promise<Map<string, TicketTier[]>> {
    const by = new Map<string, TicketTier[]>();
    if (eventIds.length === 0) return by;
    const rows = await this.db.selectFrom('skill_ticket_tiers').selectAll().where('event_id', 'in', eventIds).orderBy('price_cents').orderBy('tier').execute();
    for (const r of rows) {
      const list = by.get(r.event_id) ?? [];
      list.push({ tier: r.tier, priceCents: Number(r.price_cents), capacity: r.capacity, sold: r.sold });
      by.set(r.event_id, list);
    }
    return by;
  }

  async takeSeat(eventId: string, tier: string): Promise<{ priceCents: number } | null> {
    // one conditional update: two buyers of the last seat queue on the row lock; the second sees it sold
    const row = await this.db
      .updateTable('skill_ticket_tiers')
      .set({ sold: sql`sold + 1` })
      .where('event_id', '=', eventId)
      .where('tier', '=', tier)
      .where(sql<boolean>`sold < capacity`)
      .returning('price_cents')
      .executeTakeFirst();
    return row ? { priceCents: Number(row.price_cents) } : null;
  }

  async insertTicket(userId: string, t: Omit<Ticket, 'id' | 'createdAt'>): Promise<Ticket> {
    const row = await this.db
      .insertInto('skill_tickets')
      .values({ user_id: userId, event_id: t.eventId, tier: t.tier, email: t.email, price_cents: t.priceCents })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toTicket(row);
  }

  async tickets(eventId: string): Promise<Ticket[]> {
    if (!isUuid(eventId)) return [];
    return (await this.db.selectFrom('skill_tickets').selectAll().where('event_id', '=', eventId).orderBy('created_at').orderBy('id').execute()).map(toTicket);
  }
}

const toTicket = (r: Selectable<SkillTicketsTable>): Ticket => ({
  id: r.id, eventId: r.event_id, tier: r.tier, email: r.email, priceCents: Number(r.price_cents), createdAt: r.created_at,
});
