import { DomainError } from '../../domain/shared/domain-error.js';

/** STRIPE_WEBHOOK_SECRET is unset: no event can be authenticated, so none is accepted. HTTP: 503. */
export class WebhookNotConfiguredError extends DomainError {
  constructor() {
    super('WEBHOOK_NOT_CONFIGURED', 'The payment webhook is not configured');
  }
}

/** The processor is configured but the price this purchase needs (STRIPE_PRICE_*) is not. HTTP: 503. */
export class PriceNotConfiguredError extends DomainError {
  constructor(what: string) {
    super('PRICE_NOT_CONFIGURED', `No processor price is configured for ${what}`);
  }
}

/** A price id outside the allowed credit price list. HTTP: 400. */
export class UnknownPriceError extends DomainError {
  constructor() {
    super('UNKNOWN_PRICE', 'Unknown price: use one of the credit pack prices');
  }
}

/** A stored secret that cannot be opened: unknown key id, altered ciphertext, or sealed for another owner. HTTP: 500. */
export class SecretUnreadableError extends DomainError {
  constructor() {
    super('SECRET_UNREADABLE', 'A stored secret could not be decrypted');
  }
}

/** No payment processor in production (STRIPE_SECRET_KEY unset): nothing can be bought. HTTP: 503. */
export class PaymentsNotConfiguredError extends DomainError {
  constructor() {
    super('PAYMENTS_NOT_CONFIGURED', 'Payments are not configured');
  }
}

/** The way to change or cancel a plan the caller already has (CONTRACT.md section 7). */
export const PORTAL_ACTION = 'POST /api/billing {"action": "portal"}';

/** A plan checkout in a catalog where the caller already has an active plan. HTTP: 409. */
export class AlreadySubscribedError extends DomainError {
  constructor(catalog: string, plan: string) {
    super('ALREADY_SUBSCRIBED', `You already have the ${plan} plan: change or cancel it in the billing portal`, { catalog, plan, use: PORTAL_ACTION });
  }
}

/** The billing portal for a caller the processor has no customer for yet (nothing bought). HTTP: 409. */
export class NoBillingCustomerError extends DomainError {
  constructor() {
    super('NO_BILLING_CUSTOMER', 'Nothing to manage yet: choose a plan first');
  }
}
