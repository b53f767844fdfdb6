import { DomainError } from '../shared/domain-error.js';

/** A processor webhook whose signature, secret or timestamp does not verify. HTTP: 400. */
export class WebhookSignatureInvalidError extends DomainError {
  constructor(reason = 'Webhook signature verification failed') {
    super('WEBHOOK_SIGNATURE_INVALID', reason);
  }
}

/** A verified webhook whose body is not a processor event. HTTP: 400. */
export class WebhookPayloadInvalidError extends DomainError {
  constructor(reason = 'Webhook payload is not a valid event') {
    super('WEBHOOK_PAYLOAD_INVALID', reason);
  }
}

/** A development checkout token that is malformed, tampered with or expired. HTTP: 400. */
export class DevCheckoutInvalidError extends DomainError {
  constructor(reason = 'The checkout link is invalid or has expired') {
    super('DEV_CHECKOUT_INVALID', reason);
  }
}

/** Neither the day's units nor credits cover a paid call. HTTP: 429 (CONTRACT.md section 6). */
export class UsageExhaustedError extends DomainError {
  constructor(details?: { requested: number; available: number }) {
    super('USAGE_EXHAUSTED', 'Daily usage and credits are exhausted', details);
  }
}
