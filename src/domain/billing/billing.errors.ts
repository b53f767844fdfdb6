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
  constructor(details?: { requested: number; available: number }, refusal = { code: 'USAGE_EXHAUSTED', message: 'Daily usage and credits are exhausted' }) {
    super(refusal.code, refusal.message, details);
  }
}

/**
 * The API key's own daily units (its `dailyUnits`, inside the owner's) do not cover the call: a
 * refusal of the reservation like UsageExhaustedError, with its own code. HTTP: 429 (decision 0425).
 */
export class KeyBudgetExhaustedError extends UsageExhaustedError {
  constructor(details?: { requested: number; available: number }) {
    super(details, { code: 'KEY_BUDGET_EXHAUSTED', message: "The API key's daily units are spent" });
  }
}
