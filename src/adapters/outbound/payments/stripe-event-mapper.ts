import { isCheckoutKind, type CheckoutKind } from '../../../application/ports/payment-gateway.port.js';
import type { PaymentEvent } from '../../../application/ports/payment-webhook-verifier.port.js';
import { WebhookPayloadInvalidError } from '../../../domain/billing/billing.errors.js';
import { isCreditPack } from '../../../domain/billing/credit-packs.js';
import { parsePurchasablePlan, type PurchasablePlan } from '../../../domain/billing/purchasable-plan.js';
import { isSubscriptionStatus } from '../../../domain/billing/subscription.js';
import { isGatewayPluginId } from '../../../domain/gateway/gateway-plugin-id.js';
import { asUserId, isUuid, type UserId } from '../../../domain/shared/ids.js';
import { findUnstorableText } from '../../../domain/shared/storable-text.js';

/**
 * Maps a verified Stripe event (parsed JSON) to a PaymentEvent. It reads the payload as loose
 * JSON rather than through the SDK's types: webhook payloads follow the endpoint's API version,
 * not the SDK's, so both the current shapes and the older ones (`current_period_end` on the
 * subscription, `subscription` on the invoice) are accepted. Shared with the dev gateway, which
 * feeds it a Stripe-shaped session so both paths produce identical events.
 */

/** Price ids from configuration, to recognise a subscription whose metadata names no plan. */
export interface StripePriceCatalog {
  readonly plansByPriceId?: Readonly<Record<string, PurchasablePlan>>;
  readonly storagePriceIds?: readonly string[];
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
/** An expandable field: an id string, or the expanded object carrying `id`. */
const idOf = (v: unknown): string | undefined => str(v) ?? str(obj(v)?.id);
const userIdOf = (v: unknown): UserId | undefined => (isUuid(v) ? asUserId(v) : undefined);
const dateOf = (seconds: unknown): Date | undefined =>
  typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000) : undefined;

/**
 * A field the service keeps (ids, e-mail, type) holding a NUL character or a lone surrogate makes the event
 * unreadable (WEBHOOK_PAYLOAD_INVALID, nothing applied): PostgreSQL could not store it.
 * Such text in fields the service ignores does not matter.
 */
export function mapStripeEvent(raw: unknown, prices: StripePriceCatalog = {}): PaymentEvent {
  const event = mapEvent(raw, prices);
  if (findUnstorableText(event, 1).length > 0) throw new WebhookPayloadInvalidError();
  return event;
}

function mapEvent(raw: unknown, prices: StripePriceCatalog): PaymentEvent {
  const event = obj(raw);
  const id = str(event?.id);
  const type = str(event?.type);
  const createdAt = dateOf(event?.created);
  const object = obj(obj(event?.data)?.object);
  if (!event || !id || !type || !createdAt || !object) throw new WebhookPayloadInvalidError();
  const base = { id, createdAt, processorType: type };

  switch (type) {
    case 'checkout.session.completed':
    // Delayed payment methods complete unpaid, then confirm with this event (same session shape).
    case 'checkout.session.async_payment_succeeded':
      return mapCheckoutSession(base, object);
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return mapSubscription(base, object, type === 'customer.subscription.deleted', prices);
    case 'invoice.payment_succeeded':
    case 'invoice.payment_failed': {
      const customerId = idOf(object.customer);
      if (!customerId) return { ...base, type: 'unknown' };
      const subscriptionId = idOf(obj(obj(object.parent)?.subscription_details)?.subscription) ?? idOf(object.subscription);
      const kind = type === 'invoice.payment_succeeded' ? 'invoice.paid' : 'invoice.payment_failed';
      return { ...base, type: kind, customerId, ...(subscriptionId && { subscriptionId }) };
    }
    default:
      return { ...base, type: 'unknown' };
  }
}

type Base = { id: string; createdAt: Date; processorType: string };

function mapCheckoutSession(base: Base, session: Json): PaymentEvent {
  const sessionId = str(session.id);
  if (!sessionId) return { ...base, type: 'unknown' };
  const metadata = obj(session.metadata) ?? {};
  const plan = parsePurchasablePlan(metadata.plan, metadata.catalog);
  const pack = isCreditPack(metadata.pack) ? metadata.pack : undefined;
  const kind: CheckoutKind | undefined = isCheckoutKind(metadata.kind)
    ? metadata.kind
    : pack
      ? 'credits'
      : session.mode === 'subscription'
        ? 'subscription'
        : undefined;
  const userId = userIdOf(session.client_reference_id);
  const email = str(obj(session.customer_details)?.email) ?? str(session.customer_email);
  const customerId = idOf(session.customer);
  const subscriptionId = idOf(session.subscription);
  // Only a one-call checkout names a grant; a malformed one names none (and grants nothing).
  const plugin = str(metadata.plugin);
  const oneCall =
    kind === 'one-call' && isUuid(metadata.grantId) && plugin && isGatewayPluginId(plugin) ? { grantId: metadata.grantId, plugin } : undefined;
  return {
    ...base,
    type: 'checkout.completed',
    sessionId,
    paid: session.payment_status === 'paid' || session.payment_status === 'no_payment_required',
    ...(userId && { userId }),
    ...(email && { email }),
    ...(customerId && { customerId }),
    ...(subscriptionId && { subscriptionId }),
    ...(plan && { plan }),
    ...(pack && { pack }),
    ...(oneCall && { oneCall }),
    ...(kind && { kind }),
  };
}

function mapSubscription(base: Base, sub: Json, deleted: boolean, prices: StripePriceCatalog): PaymentEvent {
  const subscriptionId = str(sub.id);
  const customerId = idOf(sub.customer);
  // A status this service does not know is not guessed at: the event is ignored, state stays.
  const status = deleted ? 'canceled' : isSubscriptionStatus(sub.status) ? sub.status : undefined;
  if (!subscriptionId || !customerId || !status) return { ...base, type: 'unknown' };

  const metadata = obj(sub.metadata) ?? {};
  const items = (Array.isArray(obj(sub.items)?.data) ? (obj(sub.items)!.data as unknown[]) : []).map(obj);
  const priceIds = items.map((i) => idOf(i?.price)).filter((p): p is string => p !== undefined);
  // The price first: a switch in Stripe's customer portal changes the subscription's price and
  // leaves the metadata written at checkout (the old plan).
  const plan =
    priceIds.map((p) => prices.plansByPriceId?.[p]).find((p) => p !== undefined) ??
    parsePurchasablePlan(metadata.plan, metadata.catalog);
  const kind: CheckoutKind | undefined = isCheckoutKind(metadata.kind)
    ? metadata.kind
    : priceIds.some((p) => prices.storagePriceIds?.includes(p))
      ? 'storage'
      : plan
        ? 'subscription'
        : undefined;
  const userId = userIdOf(metadata.userId);
  const currentPeriodEnd = dateOf(items[0]?.current_period_end) ?? dateOf(sub.current_period_end);
  return {
    ...base,
    type: 'subscription.changed',
    subscriptionId,
    customerId,
    status,
    deleted,
    ...(plan && { plan }),
    ...(kind && { kind }),
    ...(userId && { userId }),
    ...(currentPeriodEnd && { currentPeriodEnd }),
  };
}
