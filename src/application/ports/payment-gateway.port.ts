import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';

/**
 * What a hosted checkout sells: a plan subscription, a credit pack (one-off payment), the
 * storage upgrade (a recurring add-on, not a plan), or one gateway call (one-off payment).
 */
export const CHECKOUT_KINDS = ['subscription', 'credits', 'storage', 'one-call'] as const;
export type CheckoutKind = (typeof CHECKOUT_KINDS)[number];
export const isCheckoutKind = (v: unknown): v is CheckoutKind =>
  typeof v === 'string' && (CHECKOUT_KINDS as readonly string[]).includes(v);
/** Kinds sold as a subscription (mode subscription); the others are one-off payments. */
export const isRecurringCheckout = (kind: CheckoutKind): boolean => kind === 'subscription' || kind === 'storage';

export interface CheckoutInput {
  readonly kind: CheckoutKind;
  /** Processor price id, from configuration (STRIPE_PRICE_*). */
  readonly priceId: string;
  readonly user: {
    readonly id: UserId;
    readonly email: string;
    /** The user's processor customer id when already known: reused, never duplicated. */
    readonly customerId?: string;
  };
  readonly successUrl: string;
  readonly cancelUrl: string;
  /**
   * Copied onto the session (and, for recurring kinds, onto the subscription, so its events
   * carry it too). Convention read back by the webhook mapping: `plan` (plan id, optionally with
   * `catalog`), `pack` (credit pack), `grantId` and `plugin` (one gateway call). The adapter adds
   * `kind` and `userId` itself.
   */
  readonly metadata: Readonly<Record<string, string>>;
}

export interface CheckoutSession {
  /** Where to send the user: the processor's hosted page (or the dev completion page). */
  readonly url: string;
  readonly sessionId: string;
  /** The user's processor customer: new when none was given, the caller stores it. */
  readonly customerId: string;
}

/** Hosted checkout at the payment processor. Call it outside any database transaction. */
export interface PaymentGateway {
  /**
   * Opens a hosted checkout for one price, quantity 1: mode subscription for `subscription` and
   * `storage`, one-off payment for `credits` and `one-call`. One processor customer per user: without
   * `user.customerId` a customer is created (idempotently per user, so two racing calls get the
   * same one) and returned; with it, it is reused. The session's `client_reference_id` is the
   * user id, which the completion webhook uses to find the user. Nothing is granted here: access
   * and credits arrive with the completion event.
   *
   * @throws UpstreamUnavailableError('payment processor') on any processor failure or timeout.
   */
  createCheckout(input: CheckoutInput): Promise<CheckoutSession>;
  /**
   * Opens the processor's customer portal for one customer, where its owner switches or cancels a
   * plan; what they do there arrives as `customer.subscription.*` events, applied as any other.
   *
   * @throws UpstreamUnavailableError('payment processor') on any processor failure or timeout.
   */
  openPortal(input: PortalInput): Promise<{ readonly url: string }>;
}

export interface PortalInput {
  readonly userId: UserId;
  readonly customerId: string;
  /** Where the portal's "return" link leads. */
  readonly returnUrl: string;
}
export const PAYMENT_GATEWAY: InjectionToken<PaymentGateway> = Symbol('PaymentGateway');
