import type { InjectionToken } from 'tsyringe';
import type { CreditPack } from '../../domain/billing/credit-packs.js';
import type { BillingPlan, CheckoutPlan } from '../../domain/billing/plan-catalogs.js';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';

/** Processor price ids (STRIPE_PRICE_*). An absent entry cannot be bought (503 PRICE_NOT_CONFIGURED). */
export interface BillingPrices {
  readonly checkout: Readonly<Partial<Record<CheckoutPlan, string>>>;
  readonly billing: Readonly<Partial<Record<BillingPlan, string>>>;
  /** The allowed credit price list, by pack. */
  readonly credits: Readonly<Partial<Record<CreditPack, string>>>;
  readonly storage?: string | undefined;
  /** One call of a gateway plugin (STRIPE_PRICE_GATEWAY_<PLUGIN>), a one-off payment. */
  readonly gateway?: Readonly<Partial<Record<GatewayPluginId, string>>>;
}

/** The slice of configuration the billing use cases read. */
export interface BillingSettings {
  /** APP_URL: checkout success and cancel pages live under it. */
  readonly appUrl: string;
  readonly prices: BillingPrices;
}

export const BILLING_SETTINGS: InjectionToken<BillingSettings> = Symbol('BillingSettings');
