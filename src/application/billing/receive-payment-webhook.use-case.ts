import { inject, injectable } from 'tsyringe';
import { PAYMENT_WEBHOOK_VERIFIER, type PaymentWebhookVerifier } from '../ports/payment-webhook-verifier.port.js';
import { ApplyPaymentEvent, type PaymentEventOutcome } from './apply-payment-event.use-case.js';

/**
 * An inbound processor webhook: verified against the raw body (400 WEBHOOK_SIGNATURE_INVALID,
 * nothing applied; 503 WEBHOOK_NOT_CONFIGURED without a secret), then applied exactly once.
 */
@injectable()
export class ReceivePaymentWebhook {
  constructor(
    @inject(PAYMENT_WEBHOOK_VERIFIER) private readonly verifier: PaymentWebhookVerifier,
    @inject(ApplyPaymentEvent) private readonly apply: ApplyPaymentEvent,
  ) {}

  async execute(rawBody: Buffer, signature: string | undefined): Promise<PaymentEventOutcome> {
    return this.apply.execute(this.verifier.verify(rawBody, signature));
  }
}
