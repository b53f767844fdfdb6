import type { CreditPack } from '../../domain/billing/credit-packs.js';
import type { PurchasablePlan } from '../../domain/billing/purchasable-plan.js';
import type { CheckoutKind } from '../ports/payment-gateway.port.js';
import type { BillingPrices } from '../ports/billing-settings.port.js';

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
