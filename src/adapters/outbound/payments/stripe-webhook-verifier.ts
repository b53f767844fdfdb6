import Stripe from 'stripe';
import { systemClock, type Clock } from '../../../application/ports/clock.port.js';
import type { PaymentEvent, PaymentWebhookVerifier } from '../../../application/ports/payment-webhook-verifier.port.js';
import { WebhookPayloadInvalidError, WebhookSignatureInvalidError } from '../../../domain/billing/billing.errors.js';
import { mapStripeEvent, type StripePriceCatalog } from './stripe-event-mapper.js';

export interface StripeWebhookVerifierOptions extends StripePriceCatalog {
  /** STRIPE_WEBHOOK_SECRET (`whsec_...`). */
  readonly secret: string;
  /** Maximum age of the signed timestamp; 300 s unless a test says otherwise. */
  readonly toleranceSeconds?: number;
  readonly clock?: Clock;
}

/** Verifies Stripe's signature scheme with the SDK's own code, then maps the event. */
export class StripeWebhookVerifier implements PaymentWebhookVerifier {
  private readonly tolerance: number;
  private readonly clock: Clock;

  constructor(private readonly options: StripeWebhookVerifierOptions) {
    // An empty secret would make every signature check meaningless: refuse at start, not per call.
    if (!options.secret.trim()) throw new Error('Stripe webhook secret is empty');
    this.tolerance = options.toleranceSeconds ?? 300;
    this.clock = options.clock ?? systemClock;
  }

  verify(rawBody: Buffer | string, signatureHeader: string | undefined): PaymentEvent {
    if (!signatureHeader) throw new WebhookSignatureInvalidError('Missing webhook signature header');
    let event: unknown;
    try {
      event = Stripe.webhooks.constructEvent(
        rawBody,
        signatureHeader,
        this.options.secret,
        this.tolerance,
        undefined,
        this.clock.now().getTime(),
      );
    } catch (err) {
      if (err instanceof Stripe.errors.StripeSignatureVerificationError) throw new WebhookSignatureInvalidError();
      // The signature held but the body is not JSON (or is a thin v2 notification).
      throw new WebhookPayloadInvalidError();
    }
    return mapStripeEvent(event, this.options);
  }
}
