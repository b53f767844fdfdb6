import {
  BILLING_PLANS,
  CHECKOUT_PLANS,
  isBillingPlan,
  isCheckoutPlan,
  type BillingPlan,
  type CheckoutPlan,
} from './plan-catalogs.js';

/**
 * A plan a user can subscribe to, tagged with its catalog. This is the key of every per-plan
 * table (entitlements, ranking): the tag keeps `checkout` and `billing` plans apart even where a
 * reader might be tempted to compare bare ids.
 */
export type PurchasablePlan =
  | { readonly catalog: 'checkout'; readonly plan: CheckoutPlan }
  | { readonly catalog: 'billing'; readonly plan: BillingPlan };
export type PlanCatalog = PurchasablePlan['catalog'];

export const checkoutPlan = (plan: CheckoutPlan): PurchasablePlan => ({ catalog: 'checkout', plan });
export const billingPlan = (plan: BillingPlan): PurchasablePlan => ({ catalog: 'billing', plan });

/** Every purchasable plan, checkout catalog first. */
export const PURCHASABLE_PLANS: readonly PurchasablePlan[] = Object.freeze([
  ...CHECKOUT_PLANS.map(checkoutPlan),
  ...BILLING_PLANS.map(billingPlan),
]);

export const samePlan = (a: PurchasablePlan, b: PurchasablePlan): boolean =>
  a.catalog === b.catalog && a.plan === b.plan;

/**
 * Reads a plan back from text this service wrote earlier (processor metadata, a stored row).
 * Checkout and billing ids are disjoint (a test holds this), so the id alone names its catalog;
 * a `catalog` hint, when given, must agree, otherwise the text is not a plan.
 */
export function parsePurchasablePlan(id: unknown, catalog?: unknown): PurchasablePlan | undefined {
  if (catalog !== undefined && catalog !== null && catalog !== 'checkout' && catalog !== 'billing') return undefined;
  if (isCheckoutPlan(id) && (catalog == null || catalog === 'checkout')) return checkoutPlan(id);
  if (isBillingPlan(id) && (catalog == null || catalog === 'billing')) return billingPlan(id);
  return undefined;
}
