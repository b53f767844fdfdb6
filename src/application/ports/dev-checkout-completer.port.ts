import type { InjectionToken } from 'tsyringe';
import type { PaymentEvent } from './payment-webhook-verifier.port.js';

/**
 * The development checkout's completion: turns the token of a completion link into the events a
 * real processor would have sent, so they go through the webhook's own use case. Pure CPU.
 */
export interface DevCheckoutCompleter {
  /**
   * @throws DomainError DEV_CHECKOUT_INVALID for a malformed, tampered or expired token;
   *   NOT_FOUND when the development processor is not in use.
   */
  complete(token: string): { readonly successUrl: string; readonly events: readonly PaymentEvent[] };
}
export const DEV_CHECKOUT_COMPLETER: InjectionToken<DevCheckoutCompleter> = Symbol('DevCheckoutCompleter');
