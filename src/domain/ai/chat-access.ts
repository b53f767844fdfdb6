import { entitlementsOf } from '../billing/entitlements.js';
import { chatLevelRank, isCheckoutPlan, type ChatLevel } from '../billing/plan-catalogs.js';
import type { PurchasablePlan } from '../billing/purchasable-plan.js';
import { isSubscribed, type SubscriptionStatus } from '../billing/subscription.js';
import { DomainError } from '../shared/domain-error.js';
import type { AiModel } from './ai-model.js';
import { modelsForLevel } from './model-catalog.js';

/**
 * Who may chat at which level (spec "Plan model access", CONTRACT.md section 5): the
 * `x-user-plan` header names a level, the subscription named by `x-payment-subscription-id`
 * must be subscribed and grant at least that level.
 */

/** `x-user-plan` missing or not one of label/solo/collective/network. HTTP 402; body has `success: false`. */
export class PlanRequiredError extends DomainError {
  constructor(given: string | undefined) {
    super(
      'PLAN_REQUIRED',
      given === undefined || given === ''
        ? 'A plan is required: send x-user-plan (label, solo, collective or network)'
        : `Unrecognized plan: ${given.slice(0, 40)}`,
      { success: false },
    );
  }
}

/** No subscribed subscription of the caller grants the requested level. HTTP 402. */
export class SubscriptionRequiredError extends DomainError {
  constructor(reason: string) {
    super('SUBSCRIPTION_REQUIRED', reason, { success: false });
  }
}

/** The requested model exists but is above the level. HTTP 403 with `allowedModels`. */
export class ModelRestrictedError extends DomainError {
  constructor(model: string, level: ChatLevel, allowed: readonly string[]) {
    super('MODEL_RESTRICTED', `Model ${model} is not available on the ${level} plan`, { model, plan: level, allowedModels: [...allowed] });
  }
}

/** Parses the `x-user-plan` header: a chat level, else PlanRequiredError. */
export function chatLevelFromHeader(value: string | undefined): ChatLevel {
  const v = value?.trim().toLowerCase();
  if (!isCheckoutPlan(v)) throw new PlanRequiredError(value);
  return v;
}

/** The part of a stored subscription the chat check reads. */
export interface ChatSubscription {
  readonly status: SubscriptionStatus;
  /** Null for an add-on (storage) or a row whose plan is not known yet. */
  readonly plan: PurchasablePlan | null;
}

/**
 * Checks that `subscription` lets its owner chat at `requested`: it exists, is subscribed
 * (`active` or `trialing`) and its plan's chat level is at least the requested one. The level
 * used is the requested one (a collective subscriber asking for `solo` sees solo's models).
 */
export function requireChatSubscription(subscription: ChatSubscription | null, requested: ChatLevel): ChatLevel {
  if (!subscription) throw new SubscriptionRequiredError('An active subscription is required: x-payment-subscription-id names none of yours');
  if (!isSubscribed(subscription.status)) throw new SubscriptionRequiredError(`The subscription is not active (${subscription.status})`);
  if (!subscription.plan) throw new SubscriptionRequiredError('The subscription carries no plan');
  const granted = entitlementsOf(subscription.plan).chatLevel;
  if (chatLevelRank(granted) < chatLevelRank(requested)) {
    throw new SubscriptionRequiredError(`The subscription grants the ${granted} level, not ${requested}`);
  }
  return requested;
}

/**
 * The highest chat level among the subscriptions that are subscribed and carry a plan, or null when
 * none does: the level a caller who names no subscription (the gateway, the OpenAI-compatible API) uses.
 */
export function bestChatLevel(subscriptions: readonly ChatSubscription[]): ChatLevel | null {
  let best: ChatLevel | null = null;
  for (const s of subscriptions) {
    if (!isSubscribed(s.status) || !s.plan) continue;
    const level = entitlementsOf(s.plan).chatLevel;
    if (!best || chatLevelRank(level) > chatLevelRank(best)) best = level;
  }
  return best;
}

/** The requested model if the level allows it; UnknownModelError / ModelRestrictedError otherwise. */
export function requireAllowedModel(model: AiModel, level: ChatLevel): AiModel {
  const allowed = modelsForLevel(level);
  if (!allowed.some((m) => m.id === model.id)) throw new ModelRestrictedError(model.id, level, allowed.map((m) => m.id));
  return model;
}
