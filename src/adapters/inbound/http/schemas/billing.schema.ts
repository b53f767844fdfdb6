import { z } from 'zod';
import { BYOK_KEY_MAX_LENGTH, BYOK_KEY_MIN_LENGTH, BYOK_PROVIDERS } from '../../../../domain/billing/byok.js';
import { CREDIT_PACKS } from '../../../../domain/billing/credit-packs.js';
import { BILLING_PLANS, CHECKOUT_PLANS } from '../../../../domain/billing/plan-catalogs.js';
import { GATEWAY_PLUGIN_IDS } from '../../../../domain/gateway/gateway-plugin-id.js';

/** The five actions of POST /api/billing; anything else is 400 UNKNOWN_ACTION. */
export const BILLING_ACTIONS = ['create-checkout', 'enable-byok', 'disable-byok', 'get-usage', 'buy-credits', 'portal'] as const;
export type BillingAction = (typeof BILLING_ACTIONS)[number];

/** First pass: an action is named; its own fields are parsed by the action's schema. */
export const billingActionBody = z.looseObject({ action: z.string().min(1).max(64) });

/** A pack is a string in the spec (`"50"`); a JSON number is taken too. */
const pack = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.enum(CREDIT_PACKS));

export const billingActionSchemas = {
  portal: z.object({ action: z.literal('portal') }),
  'create-checkout': z.object({ action: z.literal('create-checkout'), plan: z.enum(BILLING_PLANS) }),
  // The key itself is never echoed: zod's messages name the rule broken, not the value.
  'enable-byok': z.object({
    action: z.literal('enable-byok'),
    provider: z.enum(BYOK_PROVIDERS),
    apiKey: z.string().trim().min(BYOK_KEY_MIN_LENGTH).max(BYOK_KEY_MAX_LENGTH).regex(/^\S+$/, 'must not contain spaces'),
  }),
  'disable-byok': z.object({ action: z.literal('disable-byok'), provider: z.enum(BYOK_PROVIDERS).optional() }),
  'get-usage': z.object({ action: z.literal('get-usage') }),
  'buy-credits': z.object({ action: z.literal('buy-credits'), pack }),
} satisfies Record<BillingAction, z.ZodType>;

export const pspCheckoutQuery = z.object({ plan: z.enum(CHECKOUT_PLANS) });
export const pspCreditsQuery = z.object({ price: z.string().trim().min(1).max(255) });
/** GET /api/v1/payments/psp/create: one call of which gateway plugin (another id is 400). */
export const pspOneCallQuery = z.object({ plugin: z.enum(GATEWAY_PLUGIN_IDS) });
export const devCompleteQuery = z.object({ session: z.string().min(1).max(16_384) });
/** The development billing portal's page: its signed session, and a switch or a cancel. */
export const devPortalQuery = z.object({ session: z.string().min(1).max(4_096) });
const anyPlan = z.enum([...CHECKOUT_PLANS, ...BILLING_PLANS]);
export const devPortalChangeBody = z.discriminatedUnion('action', [
  z.object({ session: z.string().min(1).max(4_096), subscriptionId: z.string().min(1).max(255), action: z.literal('cancel') }),
  z.object({ session: z.string().min(1).max(4_096), subscriptionId: z.string().min(1).max(255), action: z.literal('switch'), plan: anyPlan }),
]);
export const subscriptionParams = z.object({ id: z.string().min(1).max(255) });

/** GET /api/admin/payments/unmatched: which events (default all), at most 200 a page. */
export const unmatchedPaymentsQuery = z.object({
  state: z.enum(['pending', 'attached', 'all']).default('all'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** The usage chart's window: whole UTC days back from today, ninety at most. */
export const USAGE_HISTORY_DAYS_MAX = 90;
export const usageHistoryQuery = z.object({ days: z.coerce.number().int().min(1).max(USAGE_HISTORY_DAYS_MAX).default(30) });
