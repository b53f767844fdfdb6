import { randomBytes, randomUUID } from 'node:crypto';
import Stripe from 'stripe';

/**
 * Builders of realistic Stripe webhook events (API version 2026-10-28 shapes) and their signed
 * form. Each builder takes overrides for the object it wraps; ids are random so a benchmark can
 * post many distinct events.
 */

export type StripeEventJson = {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  livemode: boolean;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
};

const rid = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export function stripeEvent(type: string, object: Record<string, unknown>, over: Partial<StripeEventJson> = {}): StripeEventJson {
  return {
    id: rid('evt'),
    object: 'event',
    api_version: '2026-10-28.endive',
    created: nowSeconds(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: rid('req'), idempotency_key: randomUUID() },
    type,
    data: { object },
    ...over,
  };
}

/** A `checkout.session` as Stripe sends it on completion. */
export function checkoutSession(over: Record<string, unknown> = {}): Record<string, unknown> {
  const mode = (over.mode as string | undefined) ?? 'subscription';
  return {
    id: rid('cs_test'),
    object: 'checkout.session',
    amount_subtotal: 2900,
    amount_total: 2900,
    cancel_url: 'http://localhost:3000/pricing',
    client_reference_id: randomUUID(),
    created: nowSeconds() - 60,
    currency: 'gbp',
    customer: rid('cus'),
    customer_creation: null,
    customer_details: { address: null, email: 'buyer@example.com', name: 'Buyer', phone: null, tax_exempt: 'none', tax_ids: [] },
    customer_email: null,
    expires_at: nowSeconds() + 86_400,
    livemode: false,
    metadata: { plan: 'solo', kind: 'subscription' },
    mode,
    payment_intent: mode === 'payment' ? rid('pi') : null,
    payment_status: 'paid',
    status: 'complete',
    subscription: mode === 'subscription' ? rid('sub') : null,
    success_url: 'http://localhost:3000/onboarding',
    url: null,
    ...over,
  };
}

/** A checkout session for a credit pack: mode payment, `metadata.pack`. */
export const creditPackSession = (pack: string, over: Record<string, unknown> = {}) =>
  checkoutSession({ mode: 'payment', amount_total: Number(pack) * 10, currency: 'usd', metadata: { pack, kind: 'credits' }, ...over });

/** A `subscription` with one item; the period lives on the item in current API versions. */
export function subscription(over: Record<string, unknown> & { priceId?: string } = {}): Record<string, unknown> {
  const { priceId = 'price_solo', ...rest } = over;
  const start = nowSeconds() - 60;
  const id = (rest.id as string | undefined) ?? rid('sub');
  return {
    id,
    object: 'subscription',
    billing_cycle_anchor: start,
    cancel_at_period_end: false,
    canceled_at: null,
    created: start,
    currency: 'gbp',
    customer: rid('cus'),
    ended_at: null,
    items: {
      object: 'list',
      data: [
        {
          id: rid('si'),
          object: 'subscription_item',
          current_period_start: start,
          current_period_end: start + 30 * 86_400,
          price: { id: priceId, object: 'price', currency: 'gbp', recurring: { interval: 'month', interval_count: 1 }, unit_amount: 2900 },
          quantity: 1,
          subscription: id,
        },
      ],
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    livemode: false,
    metadata: { plan: 'solo', kind: 'subscription' },
    status: 'active',
    ...rest,
  };
}

/** An `invoice` of a subscription; the subscription sits under `parent.subscription_details`. */
export function invoice(over: Record<string, unknown> & { subscriptionId?: string | null } = {}): Record<string, unknown> {
  const { subscriptionId = rid('sub'), ...rest } = over;
  return {
    id: rid('in'),
    object: 'invoice',
    amount_due: 2900,
    amount_paid: 2900,
    billing_reason: 'subscription_cycle',
    currency: 'gbp',
    customer: rid('cus'),
    customer_email: 'buyer@example.com',
    livemode: false,
    parent: subscriptionId
      ? { type: 'subscription_details', quote_details: null, subscription_details: { metadata: {}, subscription: subscriptionId } }
      : null,
    status: 'paid',
    ...rest,
  };
}

export const checkoutCompletedEvent = (session = checkoutSession(), over: Partial<StripeEventJson> = {}) =>
  stripeEvent('checkout.session.completed', session, over);
export const subscriptionEvent = (
  type: 'created' | 'updated' | 'deleted',
  sub = subscription(),
  over: Partial<StripeEventJson> = {},
) => stripeEvent(`customer.subscription.${type}`, sub, over);
export const invoiceEvent = (type: 'payment_succeeded' | 'payment_failed', inv = invoice(), over: Partial<StripeEventJson> = {}) =>
  stripeEvent(`invoice.${type}`, type === 'payment_failed' ? { status: 'open', amount_paid: 0, ...inv } : inv, over);

/**
 * Serialises an event and signs it as Stripe does (`t=...,v1=...`), with the SDK's own helper.
 * `timestamp` (epoch seconds) defaults to now; pass an old one to produce a stale signature.
 */
export function signedStripeEvent(
  secret: string,
  event: object,
  options: { timestamp?: number } = {},
): { body: string; header: string } {
  const body = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret,
    timestamp: options.timestamp ?? nowSeconds(),
  });
  return { body, header };
}
