import { createHash } from 'node:crypto';
import { systemClock, type Clock } from '../../../application/ports/clock.port.js';
import { isRecurringCheckout, type CheckoutInput, type CheckoutSession, type PaymentGateway, type PortalInput } from '../../../application/ports/payment-gateway.port.js';
import type { PaymentEvent } from '../../../application/ports/payment-webhook-verifier.port.js';
import { DevBillingPortalAdapter } from './dev-billing-portal.js';
import { DevCheckoutTokens, type DevCheckoutIntent } from './dev-checkout-token.js';
import { mapStripeEvent, type StripePriceCatalog } from './stripe-event-mapper.js';

export interface DevPaymentOptions {
  /** APP_URL: the completion page lives on this service. */
  readonly appUrl: string;
  /** Signs the completion tokens (a service secret, e.g. derived from COOKIE_SECRET). */
  readonly secret: string;
  readonly clock?: Clock;
  /** Token lifetime; 24 h by default. */
  readonly maxAgeMs?: number;
  /** The portal whose page links openPortal returns (it signs them). */
  readonly portal?: DevBillingPortalAdapter;
}

/** Path of the completion page the lead's route serves; its `session` query holds the token. */
export const DEV_CHECKOUT_COMPLETE_PATH = '/api/psp/dev/complete';

/**
 * Stands in for the processor when STRIPE_SECRET_KEY is unset. Stateless: the checkout intent is
 * signed into the returned URL, so it works across processes and restarts. The user "pays" by
 * opening the URL, whose route calls DevCheckoutCompleter.
 */
export class DevPaymentGateway implements PaymentGateway {
  private readonly tokens: DevCheckoutTokens;

  constructor(private readonly options: DevPaymentOptions) {
    this.tokens = new DevCheckoutTokens(options.secret, options.clock ?? systemClock, options.maxAgeMs);
  }

  async createCheckout(input: CheckoutInput): Promise<CheckoutSession> {
    // Deterministic per user: without a database, the same user always gets the same customer.
    const customerId =
      input.user.customerId ?? `cus_dev_${createHash('sha256').update(input.user.id).digest('hex').slice(0, 24)}`;
    const { token, intent } = this.tokens.issue({
      kind: input.kind,
      userId: input.user.id,
      email: input.user.email,
      customerId,
      priceId: input.priceId,
      metadata: { ...input.metadata, kind: input.kind, userId: input.user.id },
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
    });
    const base = this.options.appUrl.replace(/\/+$/, '');
    const url = `${base}${DEV_CHECKOUT_COMPLETE_PATH}?session=${encodeURIComponent(token)}`;
    return { url, sessionId: intent.sessionId, customerId };
  }

  async openPortal(input: PortalInput): Promise<{ url: string }> {
    const portal = this.options.portal ?? new DevBillingPortalAdapter(this.options.secret);
    return { url: portal.link(this.options.appUrl, input) };
  }
}

export interface DevCheckoutCompletion {
  readonly intent: DevCheckoutIntent;
  /**
   * What the processor would have sent, in its order: `checkout.completed`, then for recurring
   * kinds `subscription.changed` (active). Ids derive from the session id; `createdAt` is the
   * issue time, so completing the same token twice yields identical events.
   */
  readonly events: readonly PaymentEvent[];
}

/** Turns a completion token into the events a real checkout would have produced. */
export class DevCheckoutCompleter {
  private readonly tokens: DevCheckoutTokens;

  constructor(
    options: Omit<DevPaymentOptions, 'appUrl'>,
    private readonly prices: StripePriceCatalog = {},
  ) {
    this.tokens = new DevCheckoutTokens(options.secret, options.clock ?? systemClock, options.maxAgeMs);
  }

  /** @throws DevCheckoutInvalidError for a bad, tampered or expired token. */
  complete(token: string): DevCheckoutCompletion {
    const intent = this.tokens.verify(token);
    return { intent, events: devCheckoutEvents(intent, this.prices) };
  }
}

/**
 * Builds processor-shaped events and sends them through the very mapper the webhook uses, so
 * the dev path cannot drift from the real one.
 */
export function devCheckoutEvents(intent: DevCheckoutIntent, prices: StripePriceCatalog = {}): PaymentEvent[] {
  const suffix = intent.sessionId.replace(/^cs_dev_/, '');
  const recurring = isRecurringCheckout(intent.kind);
  const subscriptionId = recurring ? `sub_dev_${suffix}` : null;
  const session = {
    id: intent.sessionId,
    object: 'checkout.session',
    mode: recurring ? 'subscription' : 'payment',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: intent.userId,
    customer: intent.customerId,
    customer_details: { email: intent.email },
    customer_email: null,
    subscription: subscriptionId,
    metadata: intent.metadata,
  };
  const events = [
    mapStripeEvent(stripeEnvelope(`evt_dev_${suffix}`, 'checkout.session.completed', intent.issuedAt, session), prices),
  ];
  if (subscriptionId) {
    const subscription = {
      id: subscriptionId,
      object: 'subscription',
      customer: intent.customerId,
      status: 'active',
      metadata: intent.metadata,
      items: {
        object: 'list',
        data: [{ price: { id: intent.priceId }, current_period_end: intent.issuedAt + 30 * 24 * 3600 }],
      },
    };
    events.push(
      mapStripeEvent(stripeEnvelope(`evt_dev_${suffix}_sub`, 'customer.subscription.created', intent.issuedAt, subscription), prices),
    );
  }
  return events;
}

const stripeEnvelope = (id: string, type: string, created: number, object: unknown) => ({
  id,
  object: 'event',
  type,
  created,
  livemode: false,
  data: { object },
});
