import { entitlementsOf } from './entitlements.js';
import { chatLevelRank, type BillingPlan, type CheckoutPlan } from './plan-catalogs.js';
import type { PurchasablePlan } from './purchasable-plan.js';
import { isSubscribed, type SubscriptionStatus } from './subscription.js';

/** The profile's `plan`: the best subscribed plan's id, else `free`. */
export type ProfilePlan = CheckoutPlan | BillingPlan | 'free';

/** The part of a stored subscription the ranking reads. `plan` is absent for add-ons (storage). */
export interface SubscriptionSummary {
  readonly status: SubscriptionStatus;
  readonly plan?: PurchasablePlan | null;
}

/**
 * Orders plans across both catalogs by what they grant: chat level first (it decides which
 * models a user sees), then daily units, then agents. The catalogs' rows pair up on all three
 * (label~starter, solo~pro, collective~scale), so the remaining tie goes to the checkout catalog,
 * whose identifiers the gateway, provisioning and chat headers use. RAM is deliberately not
 * compared: it differs between the paired rows and would make `pro` outrank `solo` for no reason
 * a user would recognise. Returns > 0 when `a` is better, < 0 when `b` is, 0 for the same plan.
 */
export function comparePlans(a: PurchasablePlan, b: PurchasablePlan): number {
  const ea = entitlementsOf(a);
  const eb = entitlementsOf(b);
  return (
    chatLevelRank(ea.chatLevel) - chatLevelRank(eb.chatLevel) ||
    ea.dailyUnits - eb.dailyUnits ||
    ea.agents - eb.agents ||
    catalogPreference(a) - catalogPreference(b)
  );
}

const catalogPreference = (p: PurchasablePlan): number => (p.catalog === 'checkout' ? 1 : 0);

/**
 * The subscribed subscription with the best plan, or undefined when none is subscribed. Among
 * equal plans the first in the list wins, so callers wanting stability pass a stable order.
 */
export function bestSubscription<T extends SubscriptionSummary>(
  subscriptions: readonly T[],
): (T & { readonly plan: PurchasablePlan }) | undefined {
  let best: (T & { readonly plan: PurchasablePlan }) | undefined;
  for (const s of subscriptions) {
    if (!s.plan || !isSubscribed(s.status)) continue;
    const candidate = s as T & { readonly plan: PurchasablePlan };
    if (!best || comparePlans(candidate.plan, best.plan) > 0) best = candidate;
  }
  return best;
}

/** The profile's plan value for a user's subscriptions. */
export function profilePlan(subscriptions: readonly SubscriptionSummary[]): ProfilePlan {
  return bestSubscription(subscriptions)?.plan.plan ?? 'free';
}
