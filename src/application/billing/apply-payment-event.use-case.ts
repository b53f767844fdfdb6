import { inject, injectable } from 'tsyringe';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import type { PaymentEvent } from '../ports/payment-webhook-verifier.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { BillingSystemScope } from '../ports/scopes/billing-scope.port.js';
import { partiesOf, PaymentEffects, vouchesForCustomer, type PaymentEventOutcome } from './payment-effects.js';

export type { PaymentEventOutcome } from './payment-effects.js';

/**
 * Applies one processor event, exactly once: its id goes into the ledger in the same system
 * transaction as its effect, so a redelivery (or a concurrent delivery, which waits on the
 * ledger's key) finds it and changes nothing. Shared by the webhook and the development
 * checkout's completion page. What each event does is PaymentEffects'.
 *
 * An event whose payment finds no owner is kept as unmatched (logged at warn) in the same
 * transaction. An event whose owner is known by something the service itself wrote (the checkout's
 * reference, the subscription's metadata), a stored customer, or a verified e-mail attaches the
 * kept events of its processor customer to that owner. Both happen under the locks of the event's
 * e-mail and customer, taken before the owner is looked up, so a kept event and an attachment
 * that should find it never pass each other.
 */
@injectable()
export class ApplyPaymentEvent {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<BillingSystemScope, 'users' | 'subscriptions' | 'paymentCustomers' | 'paymentLedger' | 'unmatchedPayments' | 'oneCallGrants'>,
    @inject(PaymentEffects) private readonly effects: PaymentEffects,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async execute(event: PaymentEvent): Promise<PaymentEventOutcome> {
    const { outcome, kept } = await this.uow.asSystem(async (s) => {
      if (!(await s.paymentLedger.recordEvent(event.id, event.processorType))) return { outcome: 'duplicate' as const, kept: false };
      const parties = partiesOf(event);
      await s.unmatchedPayments.lockParties(parties);
      const owner = await this.effects.ownerOf(s, event);
      const applied = await this.effects.apply(s, event, owner);
      if (applied.ownerless) {
        await s.unmatchedPayments.keep(event);
      } else if (owner && vouchesForCustomer(owner) && parties.customerIds.length > 0) {
        await this.effects.attach(s, owner.userId, { customerIds: parties.customerIds }, { via: 'later-event', byEventId: event.id });
      }
      return { outcome: applied.outcome, kept: applied.ownerless };
    });
    if (kept) {
      // Ids only: the e-mail stays in the table, out of the log.
      const ids = event as { customerId?: string; subscriptionId?: string; email?: string };
      this.log.warn(
        { eventId: event.id, eventType: event.processorType, outcome, customerId: ids.customerId, subscriptionId: ids.subscriptionId, hasEmail: Boolean(ids.email) },
        'payment event matches no user: kept as unmatched',
      );
    } else {
      this.log.info({ eventId: event.id, eventType: event.processorType, outcome }, 'payment event processed');
    }
    return outcome;
  }
}
