import type { BillingPlan, CheckoutPlan } from './plan-catalogs.js';
import type { PurchasablePlan } from './purchasable-plan.js';

/**
 * How many schedules one agent may have, per plan (decision 0445). Its own table beside
 * entitlements.ts (CONTRACT.md section 5 is that table's source; this bound is this service's):
 * one row per plan of each catalog, checked by the compiler, the larger plans allowing more.
 * Every run is metered as any message, so the bound is about rows and ticks, not money.
 */
const SCHEDULES_PER_AGENT: {
  readonly checkout: Readonly<Record<CheckoutPlan, number>>;
  readonly billing: Readonly<Record<BillingPlan, number>>;
} = {
  checkout: { label: 5, solo: 10, collective: 25, network: 50 },
  billing: { starter: 5, pro: 10, scale: 25 },
};

/** Admins need no subscription. */
export const ADMIN_SCHEDULES_PER_AGENT = 100;

/** The plan's own figure. */
export const schedulesPerAgentOf = (p: PurchasablePlan): number =>
  p.catalog === 'checkout' ? SCHEDULES_PER_AGENT.checkout[p.plan] : SCHEDULES_PER_AGENT.billing[p.plan];

/** The best subscribed plan's figure; null with no subscribed plan and no admin role (402). */
export function schedulesPerAgent(subscribedPlans: readonly PurchasablePlan[], isAdmin: boolean): number | null {
  if (isAdmin) return ADMIN_SCHEDULES_PER_AGENT;
  if (subscribedPlans.length === 0) return null;
  return Math.max(...subscribedPlans.map(schedulesPerAgentOf));
}
