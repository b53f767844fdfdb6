// A stateful skill's stored rows, reached through the unit of work in the acting user's scope
// (RLS: their own rows only). An id that is not a uuid reads as absent.

export interface TicketTier {
  tier: string;
  priceCents: number;
  capacity: number;
  sold: number;
}

export interface TicketedEvent {
  id: string;
  name: string;
  tiers: TicketTier[];
  createdAt: Date;
}

export interface Ticket {
  id: string;
  eventId: string;
  tier: string;
  email: string;
  priceCents: number;
  createdAt: Date;
}

export interface TicketingRepository {
  insertEvent(userId: string, e: { name: string; tiers: Omit<TicketTier, 'sold'>[] }): Promise<TicketedEvent>;
  getEvent(id: string): Promise<TicketedEvent | null>;
  listEvents(): Promise<TicketedEvent[]>;
  /** Takes one seat of the tier if one is left (atomically); the tier's price, or null when sold out or absent. */
  takeSeat(eventId: string, tier: string): Promise<{ priceCents: number } | null>;
  insertTicket(userId: string, t: Omit<Ticket, 'id' | 'createdAt'>): Promise<Ticket>;
  tickets(eventId: string): Promise<Ticket[]>;
}
