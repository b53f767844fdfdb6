import { GATEWAY_PLUGIN_IDS, type GatewayPluginId } from './gateway-plugin-id.js';
import { MPP_CHALLENGE_TTL_MS } from './mpp.js';

/**
 * The gateway's price list for agent wallets (decision 0436), in the shape of x402's discovery
 * resources (x402 version 2, "Discovery API": `{x402Version, items: [{resource, type, x402Version,
 * accepts, lastUpdated, metadata}], pagination: {limit, offset, total}}`). One item per plugin;
 * `accepts` holds x402's `exact` payment requirements when the gateway settles signed
 * authorizations, else none (the price, asset, network and recipient stay in `metadata`).
 */
export const X402_VERSION = 2 as const;
export const DISCOVERY_MAX_LIMIT = 100;
export const DISCOVERY_DEFAULT_LIMIT = 20;

/** What each plugin does, for a wallet choosing one. */
export const GATEWAY_PLUGIN_DESCRIPTIONS: Readonly<Record<GatewayPluginId, string>> = {
  'generate-text': 'Text generated from a prompt or chat messages',
  agent: 'A bounded multi-step task run by an agent',
  tts: 'Speech synthesised from text',
  stt: 'A transcript of audio',
};

/** The token's EIP-712 domain, as EIP-3009 signers need it. */
export interface TokenDomain {
  readonly name: string;
  readonly version: string;
}

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

/** x402's `exact` scheme requirement on EVM for one plugin's price. */
export const exactRequirement = (t: DiscoveryTerms, amount: bigint, domain: TokenDomain) => ({
  scheme: 'exact' as const,
  network: `eip155:${t.chainId}`,
  amount: amount.toString(),
  asset: t.token,
  payTo: t.recipient,
  maxTimeoutSeconds: MPP_CHALLENGE_TTL_MS / 1000,
  extra: { name: domain.name, version: domain.version },
});

/** The discovery document for `page` of the plugins (in GATEWAY_PLUGIN_IDS order); none when MPP is not offered. */
export function discoveryDocument(terms: DiscoveryTerms | null, page: DiscoveryPage) {
  const all = terms
    ? GATEWAY_PLUGIN_IDS.map((plugin) => {
        const price = terms.prices[plugin];
        return {
          resource: terms.resource,
          type: 'http' as const,
          x402Version: X402_VERSION,
          accepts: terms.domain ? [exactRequirement(terms, price.baseUnits, terms.domain)] : [],
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
            network: `eip155:${terms.chainId}`,
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
