import { createHmac } from 'node:crypto';
import type { DependencyContainer } from 'tsyringe';
import { AesGcmSecretBox } from '../adapters/outbound/crypto/aes-gcm-secret-box.js';
import { DevBillingPortalAdapter, NoDevBillingPortal } from '../adapters/outbound/payments/dev-billing-portal.js';
import { DevCheckoutCompleter, DevPaymentGateway } from '../adapters/outbound/payments/dev-payment-gateway.js';
import type { StripePriceCatalog } from '../adapters/outbound/payments/stripe-event-mapper.js';
import {
  NoDevCheckoutCompleter,
  UnconfiguredPaymentGateway,
  UnconfiguredWebhookVerifier,
} from '../adapters/outbound/payments/unconfigured-payments.js';
import { PgUsageMeter } from '../adapters/outbound/persistence/pg-usage-meter.js';
import { UowOneCallGrants } from '../adapters/outbound/persistence/uow-one-call-grants.js';
import { ApplyPaymentEvent } from '../application/billing/apply-payment-event.use-case.js';
import { BILLING_SETTINGS, type BillingPrices } from '../application/ports/billing-settings.port.js';
import { CompleteDevCheckout } from '../application/billing/complete-dev-checkout.use-case.js';
import { DisableByok } from '../application/billing/disable-byok.use-case.js';
import { EnableByok } from '../application/billing/enable-byok.use-case.js';
import { GetBilling } from '../application/billing/get-billing.use-case.js';
import { GetCredits } from '../application/billing/get-credits.use-case.js';
import { GetSubscription } from '../application/billing/get-subscription.use-case.js';
import { GetUsage } from '../application/billing/get-usage.use-case.js';
import { ListUnmatchedPayments } from '../application/billing/list-unmatched-payments.use-case.js';
import { PaymentEffects } from '../application/billing/payment-effects.js';
import { ReadByokKeys } from '../application/billing/read-byok-keys.use-case.js';
import { ReceivePaymentWebhook } from '../application/billing/receive-payment-webhook.use-case.js';
import { RESERVATION_SWEEP_SETTINGS } from '../application/ports/reservation-sweep-settings.port.js';
import { ReleaseStaleReservations } from '../application/billing/release-stale-reservations.use-case.js';
import { RESERVATION_LEASE_SETTINGS } from '../application/ports/reservation-lease-settings.port.js';
import { leaseSettingsFor, UsageReservations } from '../application/billing/usage-reservations.js';
import { StartCheckout } from '../application/billing/start-checkout.use-case.js';
import { OpenBillingPortal } from '../application/billing/open-billing-portal.use-case.js';
import { ReadDevBillingPortal } from '../application/billing/read-dev-billing-portal.use-case.js';
import { ChangeDevBillingPlan } from '../application/billing/change-dev-billing-plan.use-case.js';
import { StartOneCallCheckout } from '../application/gateway/start-one-call-checkout.use-case.js';
import { ONE_CALL_GRANTS } from '../application/ports/one-call-grants.port.js';
import { DEV_CHECKOUT_COMPLETER } from '../application/ports/dev-checkout-completer.port.js';
import { DEV_BILLING_PORTAL } from '../application/ports/dev-billing-portal.port.js';
import { PAYMENT_GATEWAY } from '../application/ports/payment-gateway.port.js';
import { PAYMENT_WEBHOOK_VERIFIER } from '../application/ports/payment-webhook-verifier.port.js';
import { SECRET_BOX } from '../application/ports/secret-box.port.js';
import { UNIT_OF_WORK } from '../application/ports/unit-of-work.port.js';
import { USAGE_METER } from '../application/ports/usage-meter.port.js';
import { BILLING_PLANS, CHECKOUT_PLANS } from '../domain/billing/plan-catalogs.js';
import { CREDIT_PACKS } from '../domain/billing/credit-packs.js';
import { GATEWAY_PLUGIN_IDS } from '../domain/gateway/gateway-plugin-id.js';
import { parsePurchasablePlan, type PurchasablePlan } from '../domain/billing/purchasable-plan.js';
import type { Config } from './config.js';
import type { Infrastructure } from './infrastructure.js';
import type * as StripeAdapters from './stripe-adapters.js';

/**
 * Billing: the processor (Stripe when STRIPE_SECRET_KEY is set, pointed at STRIPE_API_BASE_URL
 * when given; else the development processor, which gives plans away, only where unsafe defaults
 * are allowed (a local service or ALLOW_UNSAFE_DEFAULTS=true); anywhere else nothing is sold), the
 * webhook verifier (503 without STRIPE_WEBHOOK_SECRET), the secret box for BYOK keys, the usage
 * meter, the gateway's one-call grants (bought by a one-off checkout), and the use cases.
 */
export function registerBilling(
  c: DependencyContainer,
  config: Config,
  infra: Pick<Infrastructure, 'pools'>,
  stripeAdapters?: typeof StripeAdapters,
): void {
  const needsStripe = Boolean(config.STRIPE_SECRET_KEY || config.STRIPE_WEBHOOK_SECRET);
  if (needsStripe && !stripeAdapters) throw new Error('registerBilling: Stripe is configured but its adapters were not loaded (see buildContainer)');
  const { StripePaymentGateway, StripeWebhookVerifier } = stripeAdapters ?? ({} as Partial<typeof StripeAdapters>);
  const stripe = Boolean(config.STRIPE_SECRET_KEY);
  const dev = !stripe && config.unsafeDefaults;
  // Without Stripe, placeholder ids stand in (the development processor needs no real ones).
  const prices = billingPrices(config, !stripe);
  const catalog = priceCatalog(prices);
  c.register(BILLING_SETTINGS, { useValue: { appUrl: config.APP_URL, prices } });

  // The development checkout signs its links with a key derived from COOKIE_SECRET, never the secret itself.
  const devSecret = createHmac('sha256', config.COOKIE_SECRET).update('dev-checkout-v1').digest('base64url');
  // The development portal signs its sessions with a key of its own, derived the same way.
  const devPortal = dev ? new DevBillingPortalAdapter(createHmac('sha256', config.COOKIE_SECRET).update('dev-portal-v1').digest('base64url'), catalog) : undefined;
  c.register(DEV_BILLING_PORTAL, { useValue: devPortal ?? new NoDevBillingPortal() });
  c.register(PAYMENT_GATEWAY, {
    useValue: config.STRIPE_SECRET_KEY && StripePaymentGateway
      ? new StripePaymentGateway({ secretKey: config.STRIPE_SECRET_KEY, timeoutMs: config.STRIPE_TIMEOUT_MS, ...stripeApi(config.STRIPE_API_BASE_URL) })
      : dev
        ? new DevPaymentGateway({ appUrl: config.APP_URL, secret: devSecret, ...(devPortal ? { portal: devPortal } : {}) })
        : new UnconfiguredPaymentGateway(),
  });
  const completer = dev ? new DevCheckoutCompleter({ secret: devSecret }, catalog) : undefined;
  c.register(DEV_CHECKOUT_COMPLETER, {
    useValue: completer
      ? { complete: (token: string) => { const { intent, events } = completer.complete(token); return { successUrl: intent.successUrl, events }; } }
      : new NoDevCheckoutCompleter(),
  });
  c.register(PAYMENT_WEBHOOK_VERIFIER, {
    useValue: config.STRIPE_WEBHOOK_SECRET && StripeWebhookVerifier ? new StripeWebhookVerifier({ secret: config.STRIPE_WEBHOOK_SECRET, ...catalog }) : new UnconfiguredWebhookVerifier(),
  });
  c.register(SECRET_BOX, { useValue: AesGcmSecretBox.fromBase64(config.ENCRYPTION_KEY, config.ENCRYPTION_KEYS_PREVIOUS) });
  c.register(USAGE_METER, { useValue: new PgUsageMeter(infra.pools.system, { adminEmails: config.ADMIN_EMAILS }) });
  c.register(ONE_CALL_GRANTS, { useFactory: (d) => new UowOneCallGrants(d.resolve(UNIT_OF_WORK)) });
  c.register(RESERVATION_SWEEP_SETTINGS, { useValue: { staleAfterMs: config.RESERVATION_STALE_MS, batchSize: 500 } });
  c.register(RESERVATION_LEASE_SETTINGS, { useValue: leaseSettingsFor(config.RESERVATION_STALE_MS) });
  for (const useCase of [
    PaymentEffects, ApplyPaymentEvent, ReceivePaymentWebhook, CompleteDevCheckout, StartCheckout, GetBilling, GetUsage, GetCredits,
    GetSubscription, EnableByok, DisableByok, ReadByokKeys, ListUnmatchedPayments, ReleaseStaleReservations, StartOneCallCheckout, UsageReservations,
    OpenBillingPortal, ReadDevBillingPortal, ChangeDevBillingPlan,
  ]) {
    c.registerSingleton(useCase as never);
  }
}

/**
 * STRIPE_PRICE_* by plan, pack and add-on. Without Stripe, gaps are filled with `price_dev_*`
 * placeholders (the development processor needs no real ids); with Stripe, a gap cannot be bought.
 */
function billingPrices(config: Config, placeholders: boolean): BillingPrices {
  const env = config as unknown as Record<string, string | undefined>;
  const price = (name: string, placeholder: string) => env[`STRIPE_PRICE_${name}`] ?? (placeholders ? `price_dev_${placeholder}` : undefined);
  const table = <K extends string>(keys: readonly K[], name: (k: K) => string, placeholder: (k: K) => string) =>
    Object.fromEntries(keys.flatMap((k) => { const id = price(name(k), placeholder(k)); return id ? [[k, id]] : []; })) as Partial<Record<K, string>>;
  return {
    checkout: table(CHECKOUT_PLANS, (p) => p.toUpperCase(), (p) => p),
    billing: table(BILLING_PLANS, (p) => p.toUpperCase(), (p) => p),
    credits: table(CREDIT_PACKS, (p) => `CREDITS_${p}`, (p) => `credits_${p}`),
    storage: price('STORAGE', 'storage'),
    gateway: table(GATEWAY_PLUGIN_IDS, (p) => `GATEWAY_${p.toUpperCase().replace(/-/g, '_')}`, (p) => `gateway_${p}`),
  };
}

/** Price id → plan, so a subscription event whose metadata names no plan still maps to one. */
function priceCatalog(prices: BillingPrices): StripePriceCatalog {
  const plansByPriceId: Record<string, PurchasablePlan> = {};
  for (const [plan, id] of Object.entries(prices.checkout)) {
    const p = parsePurchasablePlan(plan, 'checkout');
    if (id && p) plansByPriceId[id] = p;
  }
  for (const [plan, id] of Object.entries(prices.billing)) {
    const p = parsePurchasablePlan(plan, 'billing');
    if (id && p) plansByPriceId[id] = p;
  }
  return { plansByPriceId, storagePriceIds: prices.storage ? [prices.storage] : [] };
}

/** STRIPE_API_BASE_URL as the SDK's host, port and protocol options. */
function stripeApi(base: string | undefined) {
  if (!base) return {};
  const u = new URL(base);
  const protocol = u.protocol === 'http:' ? 'http' : 'https';
  return { api: { host: u.hostname, port: u.port ? Number(u.port) : protocol === 'http' ? 80 : 443, protocol } as const };
}
