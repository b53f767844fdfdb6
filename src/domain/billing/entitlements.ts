import type { BillingPlan, ChatLevel, CheckoutPlan } from './plan-catalogs.js';
import { PURCHASABLE_PLANS, type PurchasablePlan } from './purchasable-plan.js';

/** What one subscribed plan grants. Limits come from here, never from a provisioning tier. */
export interface Entitlements {
  /** Agents the user may have at once. */
  readonly agents: number;
  /** Skills installed per agent. */
  readonly skills: number;
  /** Agent-to-agent messages per UTC day. */
  readonly a2aPerDay: number;
  /** RAM of the user's instance, in GB. */
  readonly ramGb: number;
  /** Highest chat level (model set) the plan may use. */
  readonly chatLevel: ChatLevel;
  /** Metered units per UTC day before credits are spent. */
  readonly dailyUnits: number;
}

/**
 * CONTRACT.md section 5, row for row. One explicit table per catalog so the compiler checks that
 * every plan of each catalog has exactly one row; a unit test checks every value. `Readonly`
 * types keep callers from writing to it.
 */
const ENTITLEMENTS: {
  readonly checkout: Readonly<Record<CheckoutPlan, Entitlements>>;
  readonly billing: Readonly<Record<BillingPlan, Entitlements>>;
} = {
  checkout: {
    label: { agents: 1, skills: 3, a2aPerDay: 100, ramGb: 8, chatLevel: 'label', dailyUnits: 600 },
    solo: { agents: 3, skills: 10, a2aPerDay: 500, ramGb: 2, chatLevel: 'solo', dailyUnits: 1000 },
    collective: { agents: 10, skills: 25, a2aPerDay: 2000, ramGb: 4, chatLevel: 'collective', dailyUnits: 2500 },
    network: { agents: 100, skills: 100, a2aPerDay: 10000, ramGb: 16, chatLevel: 'network', dailyUnits: 10000 },
  },
  billing: {
    starter: { agents: 1, skills: 3, a2aPerDay: 100, ramGb: 2, chatLevel: 'label', dailyUnits: 600 },
    pro: { agents: 3, skills: 10, a2aPerDay: 500, ramGb: 4, chatLevel: 'solo', dailyUnits: 1000 },
    scale: { agents: 10, skills: 25, a2aPerDay: 2000, ramGb: 8, chatLevel: 'collective', dailyUnits: 2500 },
  },
};

/** The entitlements of a purchasable plan. */
export function entitlementsOf(p: PurchasablePlan): Entitlements {
  return p.catalog === 'checkout' ? ENTITLEMENTS.checkout[p.plan] : ENTITLEMENTS.billing[p.plan];
}

/** The whole table as rows, in PURCHASABLE_PLANS order: for listings and the totality test. */
export const ENTITLEMENT_ROWS: readonly (PurchasablePlan & Entitlements)[] = Object.freeze(
  PURCHASABLE_PLANS.map((p) => Object.freeze({ ...p, ...entitlementsOf(p) })),
);

/** Agent limit of an admin, who needs no subscription (CONTRACT.md section 5). */
export const ADMIN_AGENT_LIMIT = 1000;
/** Admins chat at the top level (spec: "Admins receive network-level access"). */
export const ADMIN_CHAT_LEVEL: ChatLevel = 'network';
