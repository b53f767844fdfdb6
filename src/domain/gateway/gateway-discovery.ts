import { GATEWAY_PLUGIN_IDS, type GatewayPluginId } from './gateway-plugin-id.js';
import type { TokenDomain } from './transfer-authorization.js';
import { caip2Network, x402ExactRequirement, X402_VERSION } from './x402.js';

/**
 * The gateway's price list for agent wallets (decision 0436), in the shape of x402's discovery
 * resources (x402 version 2, "Discovery API": `{x402Version, items: [{resource, type, x402Version,
 * accepts, lastUpdated, metadata}], pagination: {limit, offset, total}}`). One item per plugin;
 * `accepts` holds x402's `exact` payment requirements when the gateway settles signed
 * authorizations, else none (the price, asset, network and recipient stay in `metadata`).
 */
export const DISCOVERY_MAX_LIMIT = 100;
export const DISCOVERY_DEFAULT_LIMIT = 20;

/** What each plugin does, for a wallet choosing one. */
export const GATEWAY_PLUGIN_DESCRIPTIONS: Readonly<Record<GatewayPluginId, string>> = {
  'generate-text': 'Text generated from a prompt or chat messages',
  agent: 'A bounded multi-step task run by an agent',
  tts: 'Speech synthesised from text',
  stt: 'A transcript of audio',
};


export interface DiscoveryTerms {
  /** The gateway's absolute URL. */
  readonly resource: string;
  readonly chainId: number;
  readonly token: string;
  readonly recipient: string;
  readonly decimals: number;
  /** Each plugin's price: decimal text and base units. */
  readonly prices: Readonly<Record<GatewayPluginId, { readonly decimal: string; readonly baseUnits: bigint }>>;
  /** Null when the gateway does not settle signed authorizations (no x402 `exact` offer). */
  readonly domain: TokenDomain | null;
  /** Unix seconds: when these terms took effect. */
  readonly lastUpdated: number;
}

export interface DiscoveryPage {
  readonly limit: number;
  readonly offset: number;
}

/** The discovery document for `page` of the plugins (in GATEWAY_PLUGIN_IDS order); none when MPP is not offered. */
export function discoveryDocument(terms: DiscoveryTerms | null, page: DiscoveryPage) {
  const all = terms
    ? GATEWAY_PLUGIN_IDS.map((plugin) => {
        const price = terms.prices[plugin];
        return {
          resource: terms.resource,
          type: 'http' as const,
          x402Version: X402_VERSION,
          accepts: terms.domain ? [x402ExactRequirement({ ...terms, amount: price.baseUnits, domain: terms.domain })] : [],
          lastUpdated: terms.lastUpdated,
          metadata: {
            plugin,
            description: GATEWAY_PLUGIN_DESCRIPTIONS[plugin],
            method: 'POST' as const,
            headers: { 'X-Plugin-Id': plugin },
            price: price.decimal,
            amount: price.baseUnits.toString(),
            decimals: terms.decimals,
            asset: terms.token,
            network: caip2Network(terms.chainId),
            payTo: terms.recipient,
          },
        };
      })
    : [];
  return {
    x402Version: X402_VERSION,
    items: all.slice(page.offset, page.offset + page.limit),
    pagination: { limit: page.limit, offset: page.offset, total: all.length },
  };
}
