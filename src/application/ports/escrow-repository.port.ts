// A stateful skill's stored rows, reached through the unit of work in the acting user's scope
// (RLS: their own rows only). An id that is not a uuid reads as absent.

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
