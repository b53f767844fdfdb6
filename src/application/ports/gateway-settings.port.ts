import type { InjectionToken } from 'tsyringe';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import type { PrepaidBounds } from '../../domain/gateway/prepaid-bounds.js';

/** MPP's terms, present only when MPP_RPC_URL, MPP_TOKEN_ADDRESS and MPP_RECIPIENT are all set. */
export interface MppTerms {
  readonly chainId: number;
  readonly token: `0x${string}`;
  readonly recipient: `0x${string}`;
  readonly decimals: number;
  readonly confirmations: number;
  /** MPP_SETTLE_TIMEOUT_MS: how long an EIP-3009 settlement may take to be confirmed before the call answers 502. */
  readonly settleTimeoutMs: number;
}

export interface GatewaySettings {
  /** APP_URL without a trailing slash: the base of the 402's processor checkout URL. */
  readonly appUrl: string;
  readonly rateLimitPerMinute: number;
  /** Price of one call of each plugin, decimal (MPP_PRICE_<PLUGIN>): in token units on chain, in USD at the processor. */
  readonly prices: Readonly<Record<GatewayPluginId, string>>;
  readonly mpp: MppTerms | null;
  /** How large a prepaid call (MPP or a one-call purchase) may be. */
  readonly prepaid: PrepaidBounds;
}

export const GATEWAY_SETTINGS: InjectionToken<GatewaySettings> = Symbol('GatewaySettings');
