import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { SubscriptionRecord } from '../ports/subscription-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { BillingUserScope } from '../ports/scopes/billing-scope.port.js';

/** One of the caller's subscriptions by processor id; another user's answers 404 like a missing one. */
@injectable()
export class GetSubscription {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<BillingUserScope, 'subscriptions'>) {}

  async execute(actor: Actor, processorId: string): Promise<SubscriptionRecord> {
    const found = await this.uow.asUser(actor.userId, (s) => s.subscriptions.get(processorId));
    if (!found) throw new NotFoundError('Subscription');
    return found;
  }
}
