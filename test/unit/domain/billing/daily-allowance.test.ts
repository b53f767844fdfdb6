import { describe, expect, it } from 'vitest';
import { dailyUnitsFor, PLAN_RANKS } from '../../../../src/domain/billing/daily-allowance.js';
import { entitlementsOf } from '../../../../src/domain/billing/entitlements.js';
import { comparePlans } from '../../../../src/domain/billing/profile-plan.js';
import { billingPlan, checkoutPlan, PURCHASABLE_PLANS } from '../../../../src/domain/billing/purchasable-plan.js';

describe('daily allowance', () => {
  it('ranks every purchasable plan once, in the order of comparePlans, with its daily units', () => {
    expect(PLAN_RANKS).toHaveLength(PURCHASABLE_PLANS.length);
    for (let i = 1; i < PLAN_RANKS.length; i++) expect(comparePlans(PLAN_RANKS[i]!, PLAN_RANKS[i - 1]!)).toBeGreaterThan(0);
    for (const r of PLAN_RANKS) expect(r.dailyUnits).toBe(entitlementsOf(r).dailyUnits);
  });

  it('when nothing is subscribed, then 0 units (credits only); an admin gets the top plan\'s', () => {
    expect(dailyUnitsFor([], false)).toBe(0);
    expect(dailyUnitsFor([{ status: 'past_due', plan: checkoutPlan('network') }], false)).toBe(0);
    expect(dailyUnitsFor([], true)).toBe(10_000);
  });

  it('when several plans are subscribed, then the best one counts; add-ons count for nothing', () => {
    const subs = [
      { status: 'active' as const, plan: billingPlan('starter') },
      { status: 'trialing' as const, plan: checkoutPlan('collective') },
      { status: 'canceled' as const, plan: checkoutPlan('network') },
      { status: 'active' as const, plan: null },
    ];
    expect(dailyUnitsFor(subs, false)).toBe(2500);
  });
});
