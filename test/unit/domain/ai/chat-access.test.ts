import { describe, expect, it } from 'vitest';
import {
  chatLevelFromHeader,
  ModelRestrictedError,
  PlanRequiredError,
  requireAllowedModel,
  requireChatSubscription,
  SubscriptionRequiredError,
} from '../../../../src/domain/ai/chat-access.js';
import { requireModel } from '../../../../src/domain/ai/model-catalog.js';
import { billingPlan, checkoutPlan } from '../../../../src/domain/billing/purchasable-plan.js';
import { SUBSCRIPTION_STATUSES } from '../../../../src/domain/billing/subscription.js';

describe('chatLevelFromHeader', () => {
  it.each(['label', 'solo', 'collective', 'network', ' Solo '])('accepts %j', (v) => {
    expect(chatLevelFromHeader(v)).toBe(v.trim().toLowerCase());
  });

  it.each([undefined, '', 'free', 'starter', 'pro', 'enterprise', 'networkx'])('refuses %j with PLAN_REQUIRED and success: false', (v) => {
    const err = (() => {
      try {
        chatLevelFromHeader(v);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(PlanRequiredError);
    expect((err as PlanRequiredError).details).toEqual({ success: false });
  });
});

describe('requireChatSubscription', () => {
  it('passes a subscribed plan at or above the requested level, and keeps the requested level', () => {
    expect(requireChatSubscription({ status: 'active', plan: checkoutPlan('collective') }, 'solo')).toBe('solo');
    expect(requireChatSubscription({ status: 'trialing', plan: checkoutPlan('label') }, 'label')).toBe('label');
    // billing plans carry chat levels too: scale is collective
    expect(requireChatSubscription({ status: 'active', plan: billingPlan('scale') }, 'collective')).toBe('collective');
  });

  it('refuses a level above the plan', () => {
    expect(() => requireChatSubscription({ status: 'active', plan: checkoutPlan('solo') }, 'collective')).toThrow(SubscriptionRequiredError);
    expect(() => requireChatSubscription({ status: 'active', plan: billingPlan('starter') }, 'solo')).toThrow(SubscriptionRequiredError);
  });

  it.each(SUBSCRIPTION_STATUSES.filter((s) => s !== 'active' && s !== 'trialing'))('refuses status %s', (status) => {
    expect(() => requireChatSubscription({ status, plan: checkoutPlan('network') }, 'label')).toThrow(SubscriptionRequiredError);
  });

  it('refuses no subscription and a subscription without a plan (the storage add-on)', () => {
    expect(() => requireChatSubscription(null, 'label')).toThrow(SubscriptionRequiredError);
    expect(() => requireChatSubscription({ status: 'active', plan: null }, 'label')).toThrow(SubscriptionRequiredError);
  });
});

describe('requireAllowedModel', () => {
  it('passes a model of the level and refuses one above it with the allowed list', () => {
    expect(requireAllowedModel(requireModel('openai/gpt-4o-mini'), 'label').id).toBe('openai/gpt-4o-mini');
    try {
      requireAllowedModel(requireModel('openai/gpt-4o'), 'solo');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ModelRestrictedError);
      expect((err as ModelRestrictedError).code).toBe('MODEL_RESTRICTED');
      expect((err as ModelRestrictedError).details?.allowedModels).toHaveLength(4);
    }
  });
});
