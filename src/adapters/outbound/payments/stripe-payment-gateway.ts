import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import { isRecurringCheckout, type CheckoutInput, type CheckoutSession, type PaymentGateway, type PortalInput } from '../../../application/ports/payment-gateway.port.js';
import { UpstreamUnavailableError } from '../../../application/errors.js';

export interface StripePaymentGatewayOptions {
  /** STRIPE_SECRET_KEY. */
  readonly secretKey: string;
  /** Per-request timeout; a checkout redirect should fail fast rather than hang the user. */
  readonly timeoutMs?: number;
  /** SDK retries on network errors and 5xx (it adds idempotency keys to retried POSTs). */
  readonly maxNetworkRetries?: number;
  /** Another API endpoint than Stripe's, e.g. a local stand-in in tests. */
  readonly api?: { readonly host: string; readonly port: number; readonly protocol: 'http' | 'https' };
}

const UPSTREAM = 'payment processor';

/** Hosted Stripe Checkout. Vendor types stay in this file; failures become UpstreamUnavailableError. */
export class StripePaymentGateway implements PaymentGateway {
  private readonly stripe: Stripe;

  constructor(options: StripePaymentGatewayOptions) {
    this.stripe = new Stripe(options.secretKey, {
      timeout: options.timeoutMs ?? 10_000,
      maxNetworkRetries: options.maxNetworkRetries ?? 1,
      telemetry: false,
      ...(options.api && { host: options.api.host, port: options.api.port, protocol: options.api.protocol }),
    });
  }

  async createCheckout(input: CheckoutInput): Promise<CheckoutSession> {
    const customerId = input.user.customerId ?? (await this.createCustomer(input.user.id, input.user.email));
    // The adapter's keys win: `kind` and `userId` are what the webhook mapping trusts.
    const metadata = { ...input.metadata, kind: input.kind, userId: input.user.id };
    const recurring = isRecurringCheckout(input.kind);
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: recurring ? 'subscription' : 'payment',
      line_items: [{ price: input.priceId, quantity: 1 }],
      customer: customerId,
      client_reference_id: input.user.id,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      metadata,
      // Copied to the subscription so its own customer.subscription.* events name plan and user.
      ...(recurring ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
    };
    const session = await this.call(() => this.stripe.checkout.sessions.create(params));
    if (!session.url) throw new UpstreamUnavailableError(UPSTREAM, 'Checkout session has no URL');
    return { url: session.url, sessionId: session.id, customerId };
  }

  async openPortal(input: PortalInput): Promise<{ url: string }> {
    const session = await this.call(() => this.stripe.billingPortal.sessions.create({ customer: input.customerId, return_url: input.returnUrl }));
    if (!session.url) throw new UpstreamUnavailableError(UPSTREAM, 'Billing portal session has no URL');
    return { url: session.url };
  }

  private async createCustomer(userId: string, email: string): Promise<string> {
    // Idempotent per user (and e-mail, since Stripe rejects a reused key with other parameters):
    // two racing checkouts of a user without a stored customer get the same customer back.
    const key = `customer-${userId}-${createHash('sha256').update(email).digest('hex').slice(0, 16)}`;
    const customer = await this.call(() =>
      this.stripe.customers.create({ email, metadata: { userId } }, { idempotencyKey: key }),
    );
    return customer.id;
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      // Every SDK failure (HTTP error, connection error, timeout) is the processor being unavailable
      // to this request; the cause is kept for the log, never shown to the client.
      throw new UpstreamUnavailableError(UPSTREAM, undefined, err);
    }
  }
}
