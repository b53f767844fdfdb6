import { randomBytes } from 'node:crypto';
import { NotFoundError } from '../../../application/errors.js';
import { systemClock, type Clock } from '../../../application/ports/clock.port.js';
import type { DevBillingPortal, DevPortalChange } from '../../../application/ports/dev-billing-portal.port.js';
import type { PaymentEvent } from '../../../application/ports/payment-webhook-verifier.port.js';
import { DevPortalTokens } from './dev-portal-token.js';
import { mapStripeEvent, type StripePriceCatalog } from './stripe-event-mapper.js';

/** The console page that shows the development portal; its `session` query holds the token. */
export const DEV_PORTAL_PAGE = '/billing/portal';

/**
 * The development processor's portal: a change becomes the Stripe-shaped
 * `customer.subscription.updated` (a switch: the new price and plan, active) or
 * `customer.subscription.deleted` (a cancel), sent through the webhook's own mapper.
 */
export class DevBillingPortalAdapter implements DevBillingPortal {
  private readonly tokens: DevPortalTokens;

  constructor(
    secret: string,
    private readonly prices: StripePriceCatalog = {},
    private readonly clock: Clock = systemClock,
  ) {
    this.tokens = new DevPortalTokens(secret, clock);
  }

  /** The page link for a user's customer (DevPaymentGateway.openPortal). */
  link(appUrl: string, session: { userId: DevPortalChange['userId']; customerId: string; returnUrl: string }): string {
    return `${appUrl.replace(/\/+$/, '')}${DEV_PORTAL_PAGE}?session=${encodeURIComponent(this.tokens.issue(session))}`;
  }

  open(token: string) {
    return this.tokens.verify(token);
  }

  changeEvent(change: DevPortalChange): PaymentEvent {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const metadata = { plan: change.plan.plan, catalog: change.plan.catalog, kind: 'subscription', userId: change.userId };
    const subscription = {
      id: change.subscriptionId,
      object: 'subscription',
      customer: change.customerId,
      status: change.cancel ? 'canceled' : 'active',
      metadata,
      items: { object: 'list', data: [{ price: { id: change.priceId }, current_period_end: now + 30 * 24 * 3600 }] },
    };
    const type = change.cancel ? 'customer.subscription.deleted' : 'customer.subscription.updated';
    const envelope = { id: `evt_dev_portal_${randomBytes(12).toString('hex')}`, object: 'event', type, created: now, livemode: false, data: { object: subscription } };
    return mapStripeEvent(envelope, this.prices);
  }
}

/** Any processor but the development one: its portal page does not exist. */
export class NoDevBillingPortal implements DevBillingPortal {
  open(): never {
    throw new NotFoundError('Billing portal page');
  }

  changeEvent(): never {
    throw new NotFoundError('Billing portal page');
  }
}
