/**
 * The Stripe adapters, loaded by buildContainer only when Stripe is configured: the SDK is a
 * noticeable part of the start, and a service without STRIPE_* never needs it.
 */
export { StripePaymentGateway } from '../adapters/outbound/payments/stripe-payment-gateway.js';
export { StripeWebhookVerifier } from '../adapters/outbound/payments/stripe-webhook-verifier.js';
