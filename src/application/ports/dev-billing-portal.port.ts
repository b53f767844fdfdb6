import type { InjectionToken } from 'tsyringe';
import type { PurchasablePlan } from '../../domain/billing/purchasable-plan.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { PaymentEvent } from './payment-webhook-verifier.port.js';

/** A switch or a cancel made in the development billing portal. */
export interface DevPortalChange {
  readonly subscriptionId: string;
  readonly customerId: string;
  readonly userId: UserId;
  /** The plan after the change (a cancel keeps the current one). */
  readonly plan: PurchasablePlan;
  readonly priceId: string;
  readonly cancel: boolean;
}

/**
 * The development processor's customer portal: its session links and the events a change there
 * produces, shaped as the processor's own `customer.subscription.*` events so they go through the
 * webhook's use case. Pure CPU.
 */
export interface DevBillingPortal {
  /**
   * @throws DomainError DEV_CHECKOUT_INVALID for a malformed, tampered or expired session;
   *   NOT_FOUND when the development processor is not in use.
   */
  open(token: string): { readonly userId: UserId; readonly customerId: string; readonly returnUrl: string };
  /** The event the processor would send for the change; a fresh event id each time. */
  changeEvent(change: DevPortalChange): PaymentEvent;
}
export const DEV_BILLING_PORTAL: InjectionToken<DevBillingPortal> = Symbol('DevBillingPortal');
