import type { InjectionToken } from 'tsyringe';
import type { CreditPack } from '../../domain/billing/credit-packs.js';
import type { BillingPlan, CheckoutPlan } from '../../domain/billing/plan-catalogs.js';
import type { PurchasablePlan } from '../../domain/billing/purchasable-plan.js';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import type { CheckoutKind } from '../ports/payment-gateway.port.js';

/** Processor price ids (STRIPE_PRICE_*). An absent entry cannot be bought (503 PRICE_NOT_CONFIGURED). */
export interface BillingPrices {
  readonly checkout: Readonly<Partial<Record<CheckoutPlan, string>>>;
  readonly billing: Readonly<Partial<Record<BillingPlan, string>>>;
  /** The allowed credit price list, by pack. */
  readonly credits: Readonly<Partial<Record<CreditPack, string>>>;
  readonly storage?: string | undefined;
  /** One call of a gateway plugin (STRIPE_PRICE_GATEWAY_<PLUGIN>), a one-off payment. */
  readonly gateway?: Readonly<Partial<Record<GatewayPluginId, string>>>;
}

/** The slice of configuration the billing use cases read. */
export interface BillingSettings {
  /** APP_URL: checkout success and cancel pages live under it. */
  readonly appUrl: string;
  readonly prices: BillingPrices;
}
export const BILLING_SETTINGS: InjectionToken<BillingSettings> = Symbol('BillingSettings');

export const priceOfPlan = (prices: BillingPrices, p: PurchasablePlan): string | undefined =>
  p.catalog === 'checkout' ? prices.checkout[p.plan] : prices.billing[p.plan];

/** The pack a credit price id buys, if the id is on the allowed list. */
export function packOfPrice(prices: BillingPrices, priceId: string): CreditPack | undefined {
  return (Object.entries(prices.credits) as [CreditPack, string | undefined][]).find(([, id]) => id === priceId)?.[0];
}

/**
 * Where the processor sends the user back (spec: success to onboarding, cancel to pricing). Plans
 * and credit packs are bought on the console's pricing page, so a cancelled checkout and a paid
 * credit pack return there, with `checkout=` telling the page which notice to show.
 */
export function checkoutReturnUrls(appUrl: string, kind: CheckoutKind): { successUrl: string; cancelUrl: string } {
  switch (kind) {
    case 'subscription':
      return { successUrl: `${appUrl}/onboarding`, cancelUrl: `${appUrl}/pricing?checkout=canceled` };
    case 'credits':
      return { successUrl: `${appUrl}/pricing?checkout=credits`, cancelUrl: `${appUrl}/pricing?checkout=canceled` };
    default:
      return { successUrl: `${appUrl}/settings?checkout=success`, cancelUrl: `${appUrl}/settings?checkout=cancelled` };
  }
}
