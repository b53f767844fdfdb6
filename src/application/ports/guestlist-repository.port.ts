// A stateful skill's stored rows, reached through the unit of work in the acting user's scope
// (RLS: their own rows only). An id that is not a uuid reads as absent.

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
