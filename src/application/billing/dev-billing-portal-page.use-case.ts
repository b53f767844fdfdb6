import { inject, injectable } from 'tsyringe';
import { CHECKOUT_PLANS, BILLING_PLANS } from '../../domain/billing/plan-catalogs.js';
import { samePlan, type PurchasablePlan } from '../../domain/billing/purchasable-plan.js';
import { isSubscribed } from '../../domain/billing/subscription.js';
import { NotFoundError, InvalidInputError } from '../errors.js';
import { DEV_BILLING_PORTAL, type DevBillingPortal } from '../ports/dev-billing-portal.port.js';
import type { SubscriptionRecord } from '../ports/subscription-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import { ApplyPaymentEvent } from './apply-payment-event.use-case.js';
import { PriceNotConfiguredError } from './billing.errors.js';
import { BILLING_SETTINGS, priceOfPlan, type BillingSettings } from './billing-settings.js';

/** A plan subscription the portal can change, and the plans it can switch to. */
export interface PortalSubscription {
  readonly id: string;
  readonly plan: PurchasablePlan;
  readonly status: string;
  readonly switchTo: readonly PurchasablePlan[];
}

export type PortalChoice = { readonly subscriptionId: string } & ({ readonly action: 'cancel' } | { readonly action: 'switch'; readonly plan: PurchasablePlan });

/**
 * The development processor's customer portal, behind the console's page: the signed session
 * vouches for a user (no session cookie needed, like the development checkout's link). It lists
 * the user's active plan subscriptions and applies a switch or a cancel as the processor's own
 * `customer.subscription.*` event, through the webhook's use case (ledger, convergence): the same
 * path a change in Stripe's portal takes.
 */
@injectable()
export class DevBillingPortalPage {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<'subscriptions'>,
    @inject(DEV_BILLING_PORTAL) private readonly portal: DevBillingPortal,
    @inject(ApplyPaymentEvent) private readonly apply: ApplyPaymentEvent,
    @inject(BILLING_SETTINGS) private readonly settings: BillingSettings,
  ) {}

  async read(token: string): Promise<{ returnUrl: string; subscriptions: PortalSubscription[] }> {
    const session = this.portal.open(token);
    const subscriptions = await this.changeable(session.userId);
    return {
      returnUrl: session.returnUrl,
      subscriptions: subscriptions.map((s) => ({ id: s.processorId, plan: s.plan!, status: s.status, switchTo: this.switchesFrom(s.plan!) })),
    };
  }

  async change(token: string, choice: PortalChoice): Promise<{ returnUrl: string }> {
    const session = this.portal.open(token);
    const current = (await this.changeable(session.userId)).find((s) => s.processorId === choice.subscriptionId);
    if (!current) throw new NotFoundError('Subscription');
    const plan = choice.action === 'switch' ? choice.plan : current.plan!;
    if (choice.action === 'switch' && !this.switchesFrom(current.plan!).some((p) => samePlan(p, plan))) {
      throw new InvalidInputError('VALIDATION_ERROR', `Switch to another plan of the ${current.plan!.catalog} catalog`);
    }
    const priceId = priceOfPlan(this.settings.prices, plan);
    if (!priceId) throw new PriceNotConfiguredError(`plan ${plan.plan}`);
    const event = this.portal.changeEvent({
      subscriptionId: current.processorId,
      customerId: current.customerId ?? session.customerId,
      userId: session.userId,
      plan,
      priceId,
      cancel: choice.action === 'cancel',
    });
    await this.apply.execute(event);
    return { returnUrl: session.returnUrl };
  }

  /** The user's plan subscriptions still running (a canceled one is gone for good). */
  private async changeable(userId: Parameters<UserWork<'subscriptions'>['asUser']>[0]): Promise<SubscriptionRecord[]> {
    const all = await this.uow.asUser(userId, (s) => s.subscriptions.list());
    return all.filter((s) => s.kind === 'subscription' && s.plan && isSubscribed(s.status));
  }

  /** The other plans of the same catalog that have a price. */
  private switchesFrom(plan: PurchasablePlan): PurchasablePlan[] {
    const plans: PurchasablePlan[] =
      plan.catalog === 'checkout' ? CHECKOUT_PLANS.map((p) => ({ catalog: 'checkout', plan: p })) : BILLING_PLANS.map((p) => ({ catalog: 'billing', plan: p }));
    return plans.filter((p) => !samePlan(p, plan) && priceOfPlan(this.settings.prices, p));
  }
}
