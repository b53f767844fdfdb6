import { ADMIN_AGENT_LIMIT, entitlementsOf, type Entitlements } from '../billing/entitlements.js';
import type { PurchasablePlan } from '../billing/purchasable-plan.js';

/**
 * What a user's subscribed plans grant an instance: the best plan's figures, each taken on its
 * own (CONTRACT.md section 5). Null when the user has no subscribed plan and is not an admin:
 * such a user provisions nothing (402), while agents already running keep running.
 */
export interface InstanceAllowance {
  agents: number;
  skills: number;
  ramGb: number;
}

/** Admins need no subscription; they get the admin agent limit and the table's largest instance. */
export const ADMIN_ALLOWANCE: InstanceAllowance = { agents: ADMIN_AGENT_LIMIT, skills: 100, ramGb: 16 };

export function allowanceOf(subscribedPlans: readonly PurchasablePlan[], isAdmin: boolean): InstanceAllowance | null {
  const rows: Entitlements[] = subscribedPlans.map(entitlementsOf);
  if (isAdmin) return ADMIN_ALLOWANCE;
  if (rows.length === 0) return null;
  return {
    agents: Math.max(...rows.map((r) => r.agents)),
    skills: Math.max(...rows.map((r) => r.skills)),
    ramGb: Math.max(...rows.map((r) => r.ramGb)),
  };
}

/** The instance's RAM cap in bytes. */
export const ramCapBytes = (a: InstanceAllowance): number => a.ramGb * 1024 ** 3;
