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
