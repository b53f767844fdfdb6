// A stateful skill's stored rows, reached through the unit of work in the acting user's scope
// (RLS: their own rows only). An id that is not a uuid reads as absent.

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
