import { DomainError } from '../../../../domain/shared/domain-error.js';
import type { Guest, Guestlist } from '../../../ports/guestlist-repository.port.js';
import { iso } from '../skill-inputs.js';

/** Every place on the list is taken. HTTP 409. */
export class GuestlistFullError extends DomainError {
  constructor(listId: string, capacity: number) {
    super('GUESTLIST_FULL', `The guestlist is full (${capacity} guests)`, { listId, capacity });
  }
}

export const presentList = (l: Guestlist) => ({ listId: l.id, name: l.name, capacity: l.capacity, guests: l.guestCount, remaining: l.capacity - l.guestCount, createdAt: iso(l.createdAt) });

export const presentGuest = (g: Guest) => ({ guestId: g.id, listId: g.listId, name: g.name, email: g.email, checkedInAt: iso(g.checkedInAt), createdAt: iso(g.createdAt) });
