import { entitlementsOf } from './entitlements.js';
import { comparePlans, type SubscriptionSummary, bestSubscription } from './profile-plan.js';
import { PURCHASABLE_PLANS, type PurchasablePlan } from './purchasable-plan.js';

/**
 * How many units a payer gets per UTC day (CONTRACT.md section 6): the daily units of their best
 * subscribed plan, 0 without one (credits only). Admins, who need no subscription, get the top
 * plan's daily units unless their own plan gives more: metered like everyone, so a runaway admin
 * script still has a ceiling, but never refused for lacking a plan.
 */
export function dailyUnitsFor(subscriptions: readonly SubscriptionSummary[], isAdmin: boolean): number {
  const own = bestSubscription(subscriptions);
  const units = own ? entitlementsOf(own.plan).dailyUnits : 0;
  return isAdmin ? Math.max(units, ADMIN_DAILY_UNITS) : units;
}

/**
 * Every purchasable plan with its rank in the domain's order (comparePlans: 0 is the least) and
 * its daily units. Storage answers "daily units of the best subscribed plan" in one statement by
 * taking the row of the highest rank: the same answer as `dailyUnitsFor`, a test holds them equal.
 */
export const PLAN_RANKS: readonly (PurchasablePlan & { readonly rank: number; readonly dailyUnits: number })[] = Object.freeze(
  [...PURCHASABLE_PLANS]
    .sort(comparePlans)
    .map((p, rank) => Object.freeze({ ...p, rank, dailyUnits: entitlementsOf(p).dailyUnits })),
);

/** The best plan's daily units: what an admin gets at least. */
export const ADMIN_DAILY_UNITS: number = PLAN_RANKS[PLAN_RANKS.length - 1]!.dailyUnits;
