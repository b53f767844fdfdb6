// A stateful skill's stored rows, reached through the unit of work in the acting user's scope
// (RLS: their own rows only). An id that is not a uuid reads as absent.

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
