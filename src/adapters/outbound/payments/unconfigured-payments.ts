import { PaymentsNotConfiguredError, WebhookNotConfiguredError } from '../../../application/billing/billing.errors.js';
import { NotFoundError } from '../../../application/errors.js';
import type { DevCheckoutCompleter } from '../../../application/ports/dev-checkout-completer.port.js';
import type { CheckoutSession, PaymentGateway } from '../../../application/ports/payment-gateway.port.js';
import type { PaymentEvent, PaymentWebhookVerifier } from '../../../application/ports/payment-webhook-verifier.port.js';

/**
 * Stand-ins registered when a piece of payment configuration is missing, so the service starts
 * and only the feature that needs it answers (CONTRACT.md section 2).
 */

/** STRIPE_WEBHOOK_SECRET unset: no event can be authenticated, so every delivery answers 503. */
export class UnconfiguredWebhookVerifier implements PaymentWebhookVerifier {
  verify(): PaymentEvent {
    throw new WebhookNotConfiguredError();
  }
}

/** No STRIPE_SECRET_KEY on a service that is not local: nothing is sold (the development processor gives plans away). */
export class UnconfiguredPaymentGateway implements PaymentGateway {
  async createCheckout(): Promise<CheckoutSession> {
    throw new PaymentsNotConfiguredError();
  }

  async openPortal(): Promise<never> {
    throw new PaymentsNotConfiguredError();
  }
}

/** Any processor but the development one: its completion page does not exist. */
export class NoDevCheckoutCompleter implements DevCheckoutCompleter {
  complete(): never {
    throw new NotFoundError('Checkout page');
  }
}
