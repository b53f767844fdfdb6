import type { InjectionToken } from 'tsyringe';
import type { CreditPack } from '../../domain/billing/credit-packs.js';
import type { PurchasablePlan } from '../../domain/billing/purchasable-plan.js';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import type { SubscriptionStatus } from '../../domain/billing/subscription.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { CheckoutKind } from './payment-gateway.port.js';

/**
 * A payment-processor event in the service's own terms: vendor types never cross this port.
 * `id` is the processor's event id, unique per event: the ledger dedupes on it, so a redelivered
 * event has one effect.
 */
interface PaymentEventBase {
  readonly id: string;
  /** When the processor created the event: the clock of the convergence rule. */
  readonly createdAt: Date;
  /** The processor's own event type, for logs. */
  readonly processorType: string;
}

/** A hosted checkout finished (`checkout.session.completed`). */
export interface CheckoutCompletedEvent extends PaymentEventBase {
  readonly type: 'checkout.completed';
  readonly sessionId: string;
  /** From `client_reference_id` when it is a user id: the first way to find the user. */
  readonly userId?: UserId;
  /** `customer_details.email`, else `customer_email`: the fallback way to find the user. */
  readonly email?: string;
  readonly customerId?: string;
  /** Present for subscription-mode sessions (plans and the storage upgrade). */
  readonly subscriptionId?: string;
  /** From `metadata.plan` (and `metadata.catalog`). */
  readonly plan?: PurchasablePlan;
  /** From `metadata.pack`: this session bought credits instead of a plan. */
  readonly pack?: CreditPack;
  /** From `metadata.grantId` and `metadata.plugin` of a `one-call` checkout: the grant it pays. */
  readonly oneCall?: { readonly grantId: string; readonly plugin: GatewayPluginId };
  /** From `metadata.kind`, else inferred (a pack means credits, subscription mode a subscription). */
  readonly kind?: CheckoutKind;
  /** The money is confirmed (`paid` or `no_payment_required`); false for delayed methods still pending. */
  readonly paid: boolean;
}

/** `customer.subscription.created|updated|deleted`: upsert by `subscriptionId`. */
export interface SubscriptionChangedEvent extends PaymentEventBase {
  readonly type: 'subscription.changed';
  readonly subscriptionId: string;
  readonly customerId: string;
  /** `canceled` whenever `deleted` is true. */
  readonly status: SubscriptionStatus;
  /** From the subscription's price via configuration (a portal switch changes only the price), else its `metadata.plan`. */
  readonly plan?: PurchasablePlan;
  readonly kind?: CheckoutKind;
  /** From metadata `userId` the gateway wrote on the subscription. */
  readonly userId?: UserId;
  readonly currentPeriodEnd?: Date;
  readonly deleted: boolean;
}

/** `invoice.payment_succeeded`. */
export interface InvoicePaidEvent extends PaymentEventBase {
  readonly type: 'invoice.paid';
  readonly subscriptionId?: string;
  readonly customerId: string;
}

/** `invoice.payment_failed`: the subscription becomes `past_due`. */
export interface InvoicePaymentFailedEvent extends PaymentEventBase {
  readonly type: 'invoice.payment_failed';
  readonly subscriptionId?: string;
  readonly customerId: string;
}

/** Any other type, or a subscribed type lacking the ids it needs: acknowledged and ignored. */
export interface UnknownPaymentEvent extends PaymentEventBase {
  readonly type: 'unknown';
}

export type PaymentEvent =
  | CheckoutCompletedEvent
  | SubscriptionChangedEvent
  | InvoicePaidEvent
  | InvoicePaymentFailedEvent
  | UnknownPaymentEvent;

/** Authenticates inbound processor webhooks. */
export interface PaymentWebhookVerifier {
  /**
   * Checks the signature header against the exact raw body bytes (never a re-serialised body)
   * and the configured secret, with a 300 s timestamp tolerance, then maps the event. Pure CPU,
   * no I/O, safe to call concurrently.
   *
   * @throws DomainError `WEBHOOK_SIGNATURE_INVALID` when the header is missing or malformed, the
   *   signature does not match the secret, or the timestamp is outside the tolerance.
   * @throws DomainError `WEBHOOK_PAYLOAD_INVALID` when a correctly signed body is not an event.
   */
  verify(rawBody: Buffer | string, signatureHeader: string | undefined): PaymentEvent;
}
export const PAYMENT_WEBHOOK_VERIFIER: InjectionToken<PaymentWebhookVerifier> = Symbol('PaymentWebhookVerifier');
