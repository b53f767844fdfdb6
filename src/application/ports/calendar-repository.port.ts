// A stateful skill's stored rows, reached through the unit of work in the acting user's scope
// (RLS: their own rows only). An id that is not a uuid reads as absent.

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
