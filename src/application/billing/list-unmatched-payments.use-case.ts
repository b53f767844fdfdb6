import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { AdminRequiredError } from '../auth/auth.errors.js';
import type { UnmatchedPaymentRecord, UnmatchedPaymentState } from '../ports/unmatched-payment-repository.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { BillingSystemScope } from '../ports/scopes/billing-scope.port.js';

export interface ListUnmatchedPaymentsInput {
  state: UnmatchedPaymentState;
  limit: number;
  offset: number;
}

/**
 * Admins' view of the processor events that matched no user, pending or since attached, newest
 * first. Read across users, so through the system unit of work; admin only (the route checks it
 * too, this is the rule's home).
 */
@injectable()
export class ListUnmatchedPayments {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: SystemWork<BillingSystemScope, 'unmatchedPayments'>) {}

  async execute(actor: Actor, input: ListUnmatchedPaymentsInput): Promise<UnmatchedPaymentRecord[]> {
    if (actor.role !== 'admin') throw new AdminRequiredError();
    return this.uow.asSystem((s) => s.unmatchedPayments.list(input));
  }
}
