// A stateful skill's stored rows, reached through the unit of work in the acting user's scope
// (RLS: their own rows only). An id that is not a uuid reads as absent.

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
