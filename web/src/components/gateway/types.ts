/**
 * The gateway's price list as the console reads it: `GET /api/v1/gateway/discovery/resources`,
 * x402 version 2's discovery resources (decision 0436). One item per plugin while payments on
 * chain are offered, none otherwise.
 */

/** x402's `exact` payment requirement, as a 402's PAYMENT-REQUIRED carries it. */
export interface ExactRequirement {
  scheme: 'exact';
  /** CAIP-2, `eip155:<chain id>`. */
  network: string;
  /** Base units. */
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  /** The token's EIP-712 domain. */
  extra: { name: string; version: string };
}

export interface DiscoveryItem {
  /** The gateway's URL: every plugin is called there. */
  resource: string;
  type: 'http';
  x402Version: 2;
  /** Empty when the service does not settle signed authorizations (no settler account). */
  accepts: ExactRequirement[];
  lastUpdated: number;
  metadata: {
    plugin: string;
    description: string;
    method: 'POST';
    headers: Record<string, string>;
    /** Decimal token units. */
    price: string;
    /** Base units. */
    amount: string;
    decimals: number;
    asset: string;
    network: string;
    payTo: string;
  };
}

export interface DiscoveryDocument {
  x402Version: 2;
  items: DiscoveryItem[];
  pagination: { limit: number; offset: number; total: number };
}

/** The path the page reads (public: no session needed). The four plugins fit the default page. */
export const DISCOVERY_PATH = '/api/v1/gateway/discovery/resources?limit=100';
