import { describe, expect, it } from 'vitest';
import { ENTITLEMENT_ROWS, entitlementsOf } from '../../../../src/domain/billing/entitlements.js';
import { BILLING_PLANS, CHECKOUT_PLANS } from '../../../../src/domain/billing/plan-catalogs.js';
import { billingPlan, checkoutPlan, PURCHASABLE_PLANS } from '../../../../src/domain/billing/purchasable-plan.js';

// CONTRACT.md section 5, copied by hand: a change to either side must be a deliberate one.
const CONTRACT_TABLE = [
  ['checkout', 'label', 1, 3, 100, 8, 'label', 600],
  ['checkout', 'solo', 3, 10, 500, 2, 'solo', 1000],
  ['checkout', 'collective', 10, 25, 2000, 4, 'collective', 2500],
  ['checkout', 'network', 100, 100, 10000, 16, 'network', 10000],
  ['billing', 'starter', 1, 3, 100, 2, 'label', 600],
  ['billing', 'pro', 3, 10, 500, 4, 'solo', 1000],
  ['billing', 'scale', 10, 25, 2000, 8, 'collective', 2500],
] as const;

describe('entitlements', () => {
  it.each(CONTRACT_TABLE)('when the plan is %s/%s, then it grants the contract row', (catalog, plan, agents, skills, a2a, ram, level, units) => {
    const key = catalog === 'checkout' ? checkoutPlan(plan as never) : billingPlan(plan as never);
    expect(entitlementsOf(key)).toEqual({ agents, skills, a2aPerDay: a2a, ramGb: ram, chatLevel: level, dailyUnits: units });
  });

  it('when listing rows, then every plan of both catalogs has exactly one row and nothing else', () => {
    const keys = ENTITLEMENT_ROWS.map((r) => `${r.catalog}:${r.plan}`);
    const expected = [...CHECKOUT_PLANS.map((p) => `checkout:${p}`), ...BILLING_PLANS.map((p) => `billing:${p}`)];
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual([...expected].sort());
    expect(PURCHASABLE_PLANS).toHaveLength(CONTRACT_TABLE.length);
  });
});
