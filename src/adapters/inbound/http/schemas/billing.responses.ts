import { z } from 'zod';

/** Response bodies of billing (spec "Billing and payments"). */
const usage = z.object({ dailyUnits: z.number(), used: z.number(), remaining: z.number() });
const planOffer = z.object({ name: z.string(), price: z.number(), dailyUnits: z.number(), features: z.array(z.string()).readonly() });
export const subscriptionResponse = z
  .object({
    id: z.string().describe('the processor id `x-payment-subscription-id` names'),
    kind: z.string(),
    plan: z.string().nullable(),
    catalog: z.string().nullable(),
    status: z.string(),
    currentPeriodEnd: z.string().nullable(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Subscription' });
export const billingResponse = z.object({
  plans: z.record(z.string(), planOffer),
  currentPlan: z.string(),
  subscriptionStatus: z.string(),
  byokEnabled: z.boolean(),
  usage,
  subscriptions: z.array(subscriptionResponse),
});
/** Per action: `{url}` (create-checkout), `{success, message}` (enable-byok, disable-byok), usage (get-usage), `{success, credits, price, url}` (buy-credits). */
export const billingActionResponse = z.looseObject({}).describe('per action, see the spec');
export const checkoutUrlResponse = z.object({ url: z.string() });
export const creditsResponse = z.object({ credits: z.number(), packs: z.array(z.object({ pack: z.string(), credits: z.number(), price: z.number() })) });
export const unmatchedPaymentsResponse = z.object({ events: z.array(z.looseObject({ id: z.string(), type: z.string(), receivedAt: z.string() })) });

/** GET /api/psp/dev/portal: the caller's active plan subscriptions and the plans each can switch to. */
export const devPortalResponse = z.object({
  returnUrl: z.string(),
  subscriptions: z.array(z.object({ id: z.string(), plan: z.string(), catalog: z.string(), status: z.string(), switchTo: z.array(z.string()) })),
});
export const devPortalChangedResponse = z.object({ success: z.literal(true), returnUrl: z.string() });

/** GET /api/billing/usage: the console's usage chart. */
export const usageHistoryResponse = z.object({
  dailyUnits: z.number().describe("Today's daily allowance of the caller's plan"),
  unitsPerCredit: z.number(),
  days: z
    .array(z.object({ day: z.string().describe('YYYY-MM-DD (UTC)'), usedUnits: z.number(), creditUnits: z.number().describe('Of usedUnits, those paid with credits') }))
    .describe('Oldest first, today last, every day present'),
});
