import { entitlementsOf } from './entitlements.js';
import type { BillingPlan, CheckoutPlan } from './plan-catalogs.js';
import { billingPlan, checkoutPlan } from './purchasable-plan.js';

/**
 * What the catalogs sell, as shown to users. Quantities that are also entitlements (RAM, daily
 * units) are read from the entitlements table so the two can never disagree.
 */

/** A checkout plan's offer: monthly price in GBP (spec "Billing and payments"). */
export interface CheckoutPlanOffer {
  readonly monthlyPriceGbp: number;
  readonly ramGb: number;
}

const CHECKOUT_PRICES_GBP: Readonly<Record<CheckoutPlan, number>> = { label: 149, solo: 29, collective: 69, network: 499 };

export const CHECKOUT_PLAN_CATALOG: Readonly<Record<CheckoutPlan, CheckoutPlanOffer>> = Object.freeze({
  label: checkoutOffer('label'),
  solo: checkoutOffer('solo'),
  collective: checkoutOffer('collective'),
  network: checkoutOffer('network'),
});

function checkoutOffer(plan: CheckoutPlan): CheckoutPlanOffer {
  return Object.freeze({ monthlyPriceGbp: CHECKOUT_PRICES_GBP[plan], ramGb: entitlementsOf(checkoutPlan(plan)).ramGb });
}

/** A billing-API plan, exactly the spec's field set: name, price (USD), dailyUnits, features. */
export interface BillingPlanOffer {
  readonly name: string;
  readonly price: number;
  readonly dailyUnits: number;
  readonly features: readonly string[];
}

const BILLING_NAMES_AND_PRICES: Readonly<Record<BillingPlan, { name: string; price: number }>> = {
  starter: { name: 'Starter', price: 19 },
  pro: { name: 'Pro', price: 39 },
  scale: { name: 'Scale', price: 79 },
};

export const BILLING_PLAN_CATALOG: Readonly<Record<BillingPlan, BillingPlanOffer>> = Object.freeze({
  starter: billingOffer('starter'),
  pro: billingOffer('pro'),
  scale: billingOffer('scale'),
});

function billingOffer(plan: BillingPlan): BillingPlanOffer {
  const e = entitlementsOf(billingPlan(plan));
  const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
  return Object.freeze({
    ...BILLING_NAMES_AND_PRICES[plan],
    dailyUnits: e.dailyUnits,
    features: Object.freeze([
      `${e.dailyUnits.toLocaleString('en-US')} AI units per day`,
      plural(e.agents, 'agent'),
      `${plural(e.skills, 'skill')} per agent`,
      `${plural(e.a2aPerDay, 'agent-to-agent message')} per day`,
      `${e.ramGb} GB RAM`,
      `${e.chatLevel} model access`,
      'Bring your own key',
    ]),
  });
}
