// A stateful skill's stored rows, reached through the unit of work in the acting user's scope
// (RLS: their own rows only). An id that is not a uuid reads as absent.

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
