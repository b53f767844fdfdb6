// A stateful skill's stored rows, reached through the unit of work in the acting user's scope
// (RLS: their own rows only). An id that is not a uuid reads as absent.

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
