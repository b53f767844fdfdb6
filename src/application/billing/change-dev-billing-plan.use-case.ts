import { inject, injectable } from 'tsyringe';
import { samePlan } from '../../domain/billing/purchasable-plan.js';
import { NotFoundError, InvalidInputError } from '../errors.js';
import { BILLING_SETTINGS, type BillingSettings } from '../ports/billing-settings.port.js';
import { DEV_BILLING_PORTAL, type DevBillingPortal } from '../ports/dev-billing-portal.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { BillingUserScope } from '../ports/scopes/billing-scope.port.js';
import { ApplyPaymentEvent } from './apply-payment-event.use-case.js';
import { PriceNotConfiguredError } from './billing.errors.js';
import { priceOfPlan } from './billing-prices.js';
import { changeableSubscriptions, switchesFrom, type PortalChoice } from './dev-billing-portal-subscriptions.js';
import { openAs } from './read-dev-billing-portal.use-case.js';
import type { Actor } from '../auth/actor.js';

/**
 * A switch or a cancel chosen on the development processor's portal page, applied as the
 * processor's own `customer.subscription.*` event through the webhook's use case (ledger,
 * convergence): the same path a change in Stripe's portal takes.
 */
@injectable()
export class ChangeDevBillingPlan {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<BillingUserScope, 'subscriptions'>,
    @inject(DEV_BILLING_PORTAL) private readonly portal: DevBillingPortal,
    @inject(ApplyPaymentEvent) private readonly apply: ApplyPaymentEvent,
    @inject(BILLING_SETTINGS) private readonly settings: BillingSettings,
  ) {}

  async execute(actor: Pick<Actor, 'userId'>, token: string, choice: PortalChoice): Promise<{ returnUrl: string }> {
    const session = openAs(this.portal, actor, token);
    const current = (await changeableSubscriptions(this.uow, session.userId)).find((s) => s.processorId === choice.subscriptionId);
    if (!current) throw new NotFoundError('Subscription');
    const plan = choice.action === 'switch' ? choice.plan : current.plan!;
    if (choice.action === 'switch' && !switchesFrom(this.settings.prices, current.plan!).some((p) => samePlan(p, plan))) {
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
}
