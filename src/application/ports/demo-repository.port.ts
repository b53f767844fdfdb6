// A stateful skill's stored rows, reached through the unit of work in the acting user's scope
// (RLS: their own rows only). An id that is not a uuid reads as absent.

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
