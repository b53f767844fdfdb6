import { inject, injectable } from 'tsyringe';
import { DEV_CHECKOUT_COMPLETER, type DevCheckoutCompleter } from '../ports/dev-checkout-completer.port.js';
import { ApplyPaymentEvent } from './apply-payment-event.use-case.js';

/**
 * The development processor's "payment": the completion link's events go through the webhook's
 * own use case, in the processor's order, so opening the link twice has one effect (the ledger).
 * Returns where to send the user next.
 */
@injectable()
export class CompleteDevCheckout {
  constructor(
    @inject(DEV_CHECKOUT_COMPLETER) private readonly completer: DevCheckoutCompleter,
    @inject(ApplyPaymentEvent) private readonly apply: ApplyPaymentEvent,
  ) {}

  async execute(token: string): Promise<{ redirectTo: string }> {
    const { successUrl, events } = this.completer.complete(token);
    for (const event of events) await this.apply.execute(event);
    return { redirectTo: successUrl };
  }
}
