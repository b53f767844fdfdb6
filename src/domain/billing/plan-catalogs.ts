/**
 * The spec's three plan identifier sets. They overlap in spelling (`starter`, `pro`) but not in
 * meaning, so each is its own type and nothing converts between them implicitly.
 */

/** Checkout plans: gateway, checkout, provisioning with channel tokens, chat headers. */
export const CHECKOUT_PLANS = ['label', 'solo', 'collective', 'network'] as const;
export type CheckoutPlan = (typeof CHECKOUT_PLANS)[number];

/** Billing API plans. */
export const BILLING_PLANS = ['starter', 'pro', 'scale'] as const;
export type BillingPlan = (typeof BILLING_PLANS)[number];

/** Agent provisioning tiers: recorded on an agent, never a source of limits. */
export const PROVISIONING_TIERS = ['starter', 'pro', 'enterprise'] as const;
export type ProvisioningTier = (typeof PROVISIONING_TIERS)[number];

/** Chat access levels, lowest first. Their names are the checkout plans'. */
export const CHAT_LEVELS = CHECKOUT_PLANS;
export type ChatLevel = CheckoutPlan;

export const isCheckoutPlan = (v: unknown): v is CheckoutPlan =>
  typeof v === 'string' && (CHECKOUT_PLANS as readonly string[]).includes(v);
export const isBillingPlan = (v: unknown): v is BillingPlan =>
  typeof v === 'string' && (BILLING_PLANS as readonly string[]).includes(v);
export const isProvisioningTier = (v: unknown): v is ProvisioningTier =>
  typeof v === 'string' && (PROVISIONING_TIERS as readonly string[]).includes(v);

/** Rank of a chat level: label 0 < solo 1 < collective 2 < network 3. */
export const chatLevelRank = (level: ChatLevel): number => CHAT_LEVELS.indexOf(level);
