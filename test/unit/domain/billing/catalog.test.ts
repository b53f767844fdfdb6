import { describe, expect, it } from 'vitest';
import {
  BILLING_PLAN_CATALOG,
  CHECKOUT_PLAN_CATALOG,
} from '../../../../src/domain/billing/catalog.js';
import { BILLING_PLANS, CHECKOUT_PLANS } from '../../../../src/domain/billing/plan-catalogs.js';
import { parsePurchasablePlan } from '../../../../src/domain/billing/purchasable-plan.js';

describe('plan catalogs', () => {
  it('when reading checkout plans, then prices are monthly GBP and RAM matches the spec', () => {
    expect(CHECKOUT_PLAN_CATALOG).toEqual({
      solo: { monthlyPriceGbp: 29, ramGb: 2 },
      collective: { monthlyPriceGbp: 69, ramGb: 4 },
      label: { monthlyPriceGbp: 149, ramGb: 8 },
      network: { monthlyPriceGbp: 499, ramGb: 16 },
    });
  });

  it('when reading billing plans, then name, USD price, daily units and features are set', () => {
    expect(BILLING_PLAN_CATALOG.starter).toMatchObject({ name: 'Starter', price: 19, dailyUnits: 600 });
    expect(BILLING_PLAN_CATALOG.pro).toMatchObject({ name: 'Pro', price: 39, dailyUnits: 1000 });
    expect(BILLING_PLAN_CATALOG.scale).toMatchObject({ name: 'Scale', price: 79, dailyUnits: 2500 });
    for (const p of BILLING_PLANS) {
      expect(BILLING_PLAN_CATALOG[p].features.length).toBeGreaterThan(0);
      for (const f of BILLING_PLAN_CATALOG[p].features) expect(typeof f).toBe('string');
    }
    expect(BILLING_PLAN_CATALOG.pro.features).toContain('3 agents');
  });

  it('when a plan id is read back, then the catalogs never share an id and a catalog hint must agree', () => {
    expect(CHECKOUT_PLANS.filter((p) => (BILLING_PLANS as readonly string[]).includes(p))).toEqual([]);
    expect(parsePurchasablePlan('solo')).toEqual({ catalog: 'checkout', plan: 'solo' });
    expect(parsePurchasablePlan('pro')).toEqual({ catalog: 'billing', plan: 'pro' });
    expect(parsePurchasablePlan('pro', 'billing')).toEqual({ catalog: 'billing', plan: 'pro' });
    expect(parsePurchasablePlan('pro', 'checkout')).toBeUndefined();
    expect(parsePurchasablePlan('enterprise')).toBeUndefined();
    expect(parsePurchasablePlan('free')).toBeUndefined();
    expect(parsePurchasablePlan(undefined)).toBeUndefined();
    expect(parsePurchasablePlan('solo', 'other')).toBeUndefined();
  });
});
