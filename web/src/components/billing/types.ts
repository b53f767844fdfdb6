/** The billing API's shapes as the console reads them (interface spec "Billing and payments", CONTRACT.md 5 and 7). */

export type BillingPlanId = 'starter' | 'pro' | 'scale';

export interface PlanOffer {
  name: string;
  /** USD a month. */
  price: number;
  dailyUnits: number;
  features: string[];
}

export interface Usage {
  dailyUnits: number;
  used: number;
  remaining: number;
}

export interface Billing {
  plans: Record<string, PlanOffer>;
  /** The best subscribed plan's id (either catalog), or `free`. */
  currentPlan: string;
  subscriptionStatus: string;
  byokEnabled: boolean;
  usage: Usage;
}

export interface CreditPack {
  /** The pack's id, as POST /api/billing buy-credits takes it (`50`, `200`, `500`). */
  pack: string;
  /** Credits added once the payment is confirmed. */
  credits: number;
  /** USD. */
  price: number;
}

export interface Credits {
  credits: number;
  packs: CreditPack[];
}

/** The providers POST /api/billing enable-byok accepts (the AI layer's names). */
export const BYOK_PROVIDERS: { id: string; label: string }[] = [
  { id: 'openrouter', label: 'OpenRouter' },
  { id: 'openai', label: 'OpenAI' },
  { id: 'anthropic', label: 'Anthropic' },
  { id: 'google', label: 'Google' },
];

/**
 * GET /api/billing needs a session, so a visitor who is not signed in sees this copy of the
 * billing plans (spec: "starter 19 USD, 600 daily units; pro 39 USD, 1000; scale 79 USD, 2500").
 */
export const PUBLIC_PLANS: { id: BillingPlanId; name: string; price: number; dailyUnits: number }[] = [
  { id: 'starter', name: 'Starter', price: 19, dailyUnits: 600 },
  { id: 'pro', name: 'Pro', price: 39, dailyUnits: 1000 },
  { id: 'scale', name: 'Scale', price: 79, dailyUnits: 2500 },
];

export const usd = (n: number) => `$${Number.isInteger(n) ? n : n.toFixed(2)}`;
export const count = (n: number) => n.toLocaleString('en-US');

/** A plan id as people read it: the billing plans' names, else the id capitalised (`solo` → `Solo`). */
export function planLabel(id: string, plans?: Record<string, PlanOffer>): string {
  if (id === 'free') return 'Free (no plan)';
  return plans?.[id]?.name ?? id.charAt(0).toUpperCase() + id.slice(1);
}
