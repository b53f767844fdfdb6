import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { PAYMENT_GATEWAY, type PaymentGateway } from '../ports/payment-gateway.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { BillingUserScope } from '../ports/scopes/billing-scope.port.js';
import { NoBillingCustomerError } from './billing.errors.js';
import { BILLING_SETTINGS, type BillingSettings } from '../ports/billing-settings.port.js';

/**
 * POST /api/billing {"action": "portal"} (CONTRACT.md section 7 "changing or cancelling a plan"):
 * the processor's customer portal for the caller's stored customer, returning to the pricing page.
 * A caller with no customer has bought nothing: 409 NO_BILLING_CUSTOMER, and the processor is not
 * called. The processor failing is 502, nothing recorded.
 */
@injectable()
export class OpenBillingPortal {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<BillingUserScope, 'paymentCustomers'>,
    @inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    @inject(BILLING_SETTINGS) private readonly settings: BillingSettings,
  ) {}

  async execute(actor: Actor): Promise<{ url: string }> {
    const customerId = await this.uow.asUser(actor.userId, (s) => s.paymentCustomers.mine());
    if (!customerId) throw new NoBillingCustomerError();
    return this.gateway.openPortal({ userId: actor.userId, customerId, returnUrl: `${this.settings.appUrl}/pricing?portal=returned` });
  }
}
