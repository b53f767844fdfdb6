import type { Allocation, SplitShare } from '../../domain/skills/split.js';

/**
 * The stored state of the stateful skills, one repository per skill area, all in the acting
 * user's scope (RLS: their own rows only). An id that is not a uuid reads as absent.
 */

export interface ScheduledEvent {
  id: string;
  title: string;
  date: string;
  time: string;
  channels: string[];
  createdAt: Date;
}

export interface ScheduledEventRepository {
  insert(userId: string, e: { title: string; date: string; time: string; channels: string[] }): Promise<ScheduledEvent>;
  /** Soonest first. */
  list(): Promise<ScheduledEvent[]>;
}

export interface Escrow {
  id: string;
  bookingId: string;
  guaranteeCents: number;
  backendCents: number;
  depositCents: number;
  amountCents: number;
  status: 'held' | 'released';
  createdAt: Date;
  releasedAt: Date | null;
}

export interface EscrowRepository {
  /** Null when the user already has an escrow for `bookingId`. */
  insert(userId: string, e: Omit<Escrow, 'id' | 'status' | 'createdAt' | 'releasedAt'>): Promise<Escrow | null>;
  get(bookingId: string): Promise<Escrow | null>;
  list(): Promise<Escrow[]>;
  /** Held → released; returns the escrow as it is afterwards and whether this call released it. */
  release(bookingId: string): Promise<{ escrow: Escrow; released: boolean } | null>;
  totals(): Promise<{ heldCents: number; releasedCents: number; held: number; released: number }>;
}

export interface SplitRule {
  id: string;
  splits: SplitShare[];
  thresholdCents: number;
  pendingCents: number;
  createdAt: Date;
}

export interface SplitExecution {
  id: string;
  ruleId: string;
  amountCents: number;
  allocations: Allocation[];
  createdAt: Date;
}

export interface SplitRepository {
  insertRule(userId: string, r: { splits: SplitShare[]; thresholdCents: number }): Promise<SplitRule>;
  /** Locks the rule for the rest of the transaction, so pending amounts add up under concurrency. */
  getRuleForUpdate(id: string): Promise<SplitRule | null>;
  getRule(id: string): Promise<SplitRule | null>;
  listRules(): Promise<SplitRule[]>;
  setPending(id: string, pendingCents: number): Promise<void>;
  insertExecution(userId: string, e: { ruleId: string; amountCents: number; allocations: Allocation[] }): Promise<SplitExecution>;
  /** Executions of one rule, or of all the user's rules, oldest first. */
  listExecutions(ruleId?: string): Promise<SplitExecution[]>;
}

export interface Guestlist {
  id: string;
  name: string;
  capacity: number;
  guestCount: number;
  createdAt: Date;
}

export interface Guest {
  id: string;
  listId: string;
  name: string;
  email: string | null;
  checkedInAt: Date | null;
  createdAt: Date;
}

export interface GuestlistRepository {
  insertList(userId: string, l: { name: string; capacity: number }): Promise<Guestlist>;
  getList(id: string): Promise<Guestlist | null>;
  lists(): Promise<Guestlist[]>;
  /** Takes a place if one is free (atomically); false when the list is full. */
  takePlace(listId: string): Promise<boolean>;
  insertGuest(userId: string, g: { listId: string; name: string; email: string | null }): Promise<Guest>;
  /** Deletes the guest and frees its place; false when there is no such guest on the list. */
  removeGuest(listId: string, guestId: string): Promise<boolean>;
  /** Sets the check-in time unless already set; null when there is no such guest on the list. */
  checkIn(listId: string, guestId: string): Promise<{ guest: Guest; already: boolean } | null>;
  guests(listId: string): Promise<Guest[]>;
}

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

export interface RoyaltyEntry {
  id: string;
  source: string;
  amountCents: number;
  period: string | null;
  createdAt: Date;
}

export interface RoyaltyRepository {
  insert(userId: string, e: { source: string; amountCents: number; period: string | null }): Promise<RoyaltyEntry>;
  list(filter: { source?: string; period?: string }): Promise<RoyaltyEntry[]>;
}

export interface StoredTrack {
  id: string;
  title: string;
  artist: string;
  genre: string;
  durationSeconds: number;
  createdAt: Date;
}

export interface TrackRepository {
  insert(userId: string, t: Omit<StoredTrack, 'id' | 'createdAt'>): Promise<StoredTrack>;
  /** Oldest first; `genre` matches case-insensitively. */
  list(genre?: string): Promise<StoredTrack[]>;
}

export interface Fan {
  id: string;
  name: string;
  email: string | null;
  city: string | null;
  showsAttended: number;
  purchases: number;
  streams: number;
  createdAt: Date;
}

export interface FanRepository {
  insert(userId: string, f: Omit<Fan, 'id' | 'createdAt'>): Promise<Fan>;
  list(): Promise<Fan[]>;
}

export interface DemoSubmission {
  id: string;
  title: string;
  artist: string;
  label: string | null;
  link: string | null;
  status: 'submitted';
  createdAt: Date;
}

export interface DemoRepository {
  insert(userId: string, d: Omit<DemoSubmission, 'id' | 'status' | 'createdAt'>): Promise<DemoSubmission>;
  list(): Promise<DemoSubmission[]>;
}

export interface CalendarEntry {
  id: string;
  title: string;
  startsAt: Date;
  endsAt: Date;
  notes: string | null;
  createdAt: Date;
}

export interface CalendarRepository {
  insert(userId: string, e: Omit<CalendarEntry, 'id' | 'createdAt'>): Promise<CalendarEntry>;
  /** Entries overlapping [from, to), soonest first; either bound may be open. */
  list(range: { from?: Date; to?: Date }): Promise<CalendarEntry[]>;
}

export interface Note {
  id: string;
  title: string;
  content: string;
  createdAt: Date;
}

export interface NoteRepository {
  insert(userId: string, n: { title: string; content: string }): Promise<Note>;
  get(id: string): Promise<Note | null>;
  /** Newest first; `query` matches title or content, case-insensitively. */
  list(query?: string): Promise<Note[]>;
}
