import { z } from 'zod';
import { DomainError } from '../../../../domain/shared/domain-error.js';
import type { Escrow } from '../../../ports/escrow-repository.port.js';
import { iso, money, text } from '../skill-inputs.js';

/** A booking's terms in major units (at most 2 decimals each). */
export const booking = z.strictObject({ guarantee: money, backend: money, deposit: money });
export const bookingId = text(100);

/** The user already holds an escrow for this booking. HTTP 409. */
export class EscrowExistsError extends DomainError {
  constructor(bookingId: string) {
    super('ESCROW_EXISTS', `An escrow for booking ${bookingId} already exists`, { bookingId });
  }
}

export const present = (e: Escrow) => ({
  bookingId: e.bookingId, status: e.status, amountCents: e.amountCents, guaranteeCents: e.guaranteeCents, backendCents: e.backendCents,
  depositCents: e.depositCents, currency: 'USD', createdAt: iso(e.createdAt), releasedAt: iso(e.releasedAt),
});
