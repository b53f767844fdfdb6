import { inject, injectable } from 'tsyringe';
import { isSubscribed } from '../../domain/billing/subscription.js';
import { DEV_CHECKOUT_COMPLETER, type DevCheckoutCompleter } from '../ports/dev-checkout-completer.port.js';
import type { PaymentEvent } from '../ports/payment-webhook-verifier.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { BillingUserScope } from '../ports/scopes/billing-scope.port.js';
import { ApplyPaymentEvent } from './apply-payment-event.use-case.js';
import { BILLING_SETTINGS, type BillingSettings } from '../ports/billing-settings.port.js';

/**
 * The development processor's "payment": the completion link's events go through the webhook's
 * own use case, in the processor's order, so opening the link twice has one effect (the ledger).
 * Returns where to send the user next.
 *
 * A plan checkout opened before another one of the same catalog was paid (two tabs) is refused
 * once that other plan is active: nothing is applied, and the user is sent back to the pricing
 * page, which offers the portal. The development processor takes no money, so refusing costs
 * nobody anything (with Stripe the charge has happened: see docs/decisions/0281).
 */
@injectable()
export class CompleteDevCheckout {
  constructor(
    @inject(DEV_CHECKOUT_COMPLETER) private readonly completer: DevCheckoutCompleter,
    @inject(ApplyPaymentEvent) private readonly apply: ApplyPaymentEvent,
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<BillingUserScope, 'subscriptions'>,
    @inject(BILLING_SETTINGS) private readonly settings: BillingSettings,
  ) {}

  async execute(token: string): Promise<{ redirectTo: string }> {
    const { successUrl, events } = this.completer.complete(token);
    if (await this.anotherPlanHeld(events)) return { redirectTo: `${this.settings.appUrl}/pricing?checkout=already-subscribed` };
    for (const event of events) await this.apply.execute(event);
    return { redirectTo: successUrl };
  }

  /** The checkout's plan subscription, when the user already holds another active one of its catalog. */
  private async anotherPlanHeld(events: readonly PaymentEvent[]): Promise<boolean> {
    const sub = events.find((e) => e.type === 'subscription.changed');
    if (!sub || sub.type !== 'subscription.changed' || !sub.plan || !sub.userId || sub.kind !== 'subscription') return false;
    const held = await this.uow.asUser(sub.userId, (s) => s.subscriptions.list());
    return held.some((h) => h.processorId !== sub.subscriptionId && h.kind === 'subscription' && h.plan?.catalog === sub.plan!.catalog && isSubscribed(h.status));
  }
}
