import { CHECKOUT_PLANS, BILLING_PLANS } from '../../domain/billing/plan-catalogs.js';
import { samePlan, type PurchasablePlan } from '../../domain/billing/purchasable-plan.js';
import { isSubscribed } from '../../domain/billing/subscription.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { BillingSettings } from '../ports/billing-settings.port.js';
import type { SubscriptionRecord } from '../ports/subscription-repository.port.js';
import type { UserWork } from '../ports/unit-of-work.port.js';
import type { BillingUserScope } from '../ports/scopes/billing-scope.port.js';
import { priceOfPlan } from './billing-prices.js';

/** A plan subscription the development portal can change, and the plans it can switch to. */
export interface PortalSubscription {
  readonly id: string;
  readonly plan: PurchasablePlan;
  readonly status: string;
  readonly switchTo: readonly PurchasablePlan[];
}

export type PortalChoice = { readonly subscriptionId: string } & ({ readonly action: 'cancel' } | { readonly action: 'switch'; readonly plan: PurchasablePlan });

/** The user's plan subscriptions still running (a canceled one is gone for good). */
export async function changeableSubscriptions(uow: UserWork<BillingUserScope, 'subscriptions'>, userId: UserId): Promise<SubscriptionRecord[]> {
  const all = await uow.asUser(userId, (s) => s.subscriptions.list());
  return all.filter((s) => s.kind === 'subscription' && s.plan && isSubscribed(s.status));
}

/** The other plans of the same catalog that have a price. */
export function switchesFrom(prices: BillingSettings['prices'], plan: PurchasablePlan): PurchasablePlan[] {
  const plans: PurchasablePlan[] =
    plan.catalog === 'checkout' ? CHECKOUT_PLANS.map((p) => ({ catalog: 'checkout', plan: p })) : BILLING_PLANS.map((p) => ({ catalog: 'billing', plan: p }));
  return plans.filter((p) => !samePlan(p, plan) && priceOfPlan(prices, p));
}
