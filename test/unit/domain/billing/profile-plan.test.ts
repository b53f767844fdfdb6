import { describe, expect, it } from 'vitest';
import { bestSubscription, comparePlans, profilePlan } from '../../../../src/domain/billing/profile-plan.js';
import { billingPlan, checkoutPlan, PURCHASABLE_PLANS } from '../../../../src/domain/billing/purchasable-plan.js';

describe('profile plan', () => {
  it('when no subscription is subscribed, then the plan is free', () => {
    expect(profilePlan([])).toBe('free');
    expect(profilePlan([{ status: 'past_due', plan: checkoutPlan('network') }, { status: 'canceled', plan: billingPlan('scale') }])).toBe('free');
    expect(profilePlan([{ status: 'active', plan: null }])).toBe('free');
  });

  it('when several are subscribed, then the best one by chat level then daily units is shown', () => {
    expect(profilePlan([{ status: 'active', plan: billingPlan('scale') }, { status: 'trialing', plan: checkoutPlan('solo') }])).toBe('scale');
    expect(profilePlan([{ status: 'active', plan: checkoutPlan('label') }, { status: 'active', plan: checkoutPlan('solo') }])).toBe('solo');
    expect(profilePlan([{ status: 'past_due', plan: checkoutPlan('network') }, { status: 'active', plan: billingPlan('starter') }])).toBe('starter');
  });

  it('when plans of the two catalogs grant the same level and units, then the checkout plan wins', () => {
    expect(comparePlans(checkoutPlan('label'), billingPlan('starter'))).toBeGreaterThan(0);
    expect(comparePlans(billingPlan('pro'), checkoutPlan('solo'))).toBeLessThan(0);
    expect(profilePlan([{ status: 'active', plan: billingPlan('scale') }, { status: 'active', plan: checkoutPlan('collective') }])).toBe('collective');
  });

  it('when comparing all plans, then the order is total and antisymmetric', () => {
    for (const a of PURCHASABLE_PLANS)
      for (const b of PURCHASABLE_PLANS) {
        const same = a.catalog === b.catalog && a.plan === b.plan;
        expect(comparePlans(a, b) === 0).toBe(same);
        expect(Math.sign(comparePlans(a, b))).toBe(-Math.sign(comparePlans(b, a)) || 0);
      }
    const sorted = [...PURCHASABLE_PLANS].sort(comparePlans).map((p) => p.plan);
    expect(sorted).toEqual(['starter', 'label', 'pro', 'solo', 'scale', 'collective', 'network']);
  });

  it('when picking the best subscription, then the caller gets its own record back', () => {
    const subs = [
      { id: 'sub_1', status: 'active' as const, plan: checkoutPlan('solo') },
      { id: 'sub_2', status: 'active' as const, plan: checkoutPlan('network') },
    ];
    expect(bestSubscription(subs)?.id).toBe('sub_2');
  });
});
