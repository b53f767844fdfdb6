import { z } from 'zod';
import { DISCOVERY_DEFAULT_LIMIT, DISCOVERY_MAX_LIMIT } from '../../../../domain/gateway/gateway-discovery.js';

/** x402's discovery query: `type` filters (only `http` resources exist), `limit` 1-100, `offset` from 0. */
export const gatewayDiscoveryQuery = z.object({
  type: z.string().max(32).optional().describe('resource type to list; the gateway has `http` resources only'),
  limit: z.coerce.number().int().min(1).max(DISCOVERY_MAX_LIMIT).default(DISCOVERY_DEFAULT_LIMIT),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
});

const exactRequirement = z.object({
  scheme: z.literal('exact'),
  network: z.string().describe('CAIP-2, `eip155:<MPP_CHAIN_ID>`'),
  amount: z.string().describe('the price in the token\'s base units'),
  asset: z.string().describe('the token contract (MPP_TOKEN_ADDRESS)'),
  payTo: z.string().describe('MPP_RECIPIENT'),
  maxTimeoutSeconds: z.number().int(),
  extra: z.object({ name: z.string(), version: z.string() }).describe("the token's EIP-712 domain, read from the chain"),
});

/** x402 version 2's discovery resources list: one item per gateway plugin. */
export const gatewayDiscoveryResponse = z.object({
  x402Version: z.literal(2),
  items: z.array(
    z.object({
      resource: z.string().describe('the gateway\'s URL: every plugin is called there, chosen by X-Plugin-Id'),
      type: z.literal('http'),
      x402Version: z.literal(2),
      accepts: z.array(exactRequirement).describe("x402's `exact` payment requirements; empty when the gateway does not settle signed authorizations (MPP_SETTLER_PRIVATE_KEY unset)"),
      lastUpdated: z.number().int().describe('unix seconds: when this process took its prices'),
      metadata: z.object({
        plugin: z.string(),
        description: z.string(),
        method: z.literal('POST'),
        headers: z.record(z.string(), z.string()).describe('the headers that pick the plugin'),
        price: z.string().describe('decimal token units (MPP_PRICE_<PLUGIN>)'),
        amount: z.string().describe('base units'),
        decimals: z.number().int(),
        asset: z.string(),
        network: z.string(),
        payTo: z.string(),
      }),
    }),
  ),
  pagination: z.object({ limit: z.number().int(), offset: z.number().int(), total: z.number().int() }),
});
