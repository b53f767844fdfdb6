import { z } from 'zod';
import type { GatewayPluginId } from '../../../../domain/gateway/gateway-plugin-id.js';
import { GATEWAY_BODY_SCHEMAS, agentBody, generateTextBody, sttBody, ttsBody } from '../../../../application/gateway/plugin-bodies.js';

/**
 * The body as the document describes it: `plugin` (or the `X-Plugin-Id` header) picks the plugin,
 * the rest is that plugin's body. Documentation only: CallGatewayPlugin reads `plugin` and checks the
 * rest with the plugin's own schema (application/gateway/plugin-bodies.ts).
 */
export const gatewayDocumentedBody = z
  .object({ plugin: z.enum(Object.keys(GATEWAY_BODY_SCHEMAS) as [GatewayPluginId, ...GatewayPluginId[]]).optional().describe('the plugin to call; `generate-text` when neither this nor X-Plugin-Id is given') })
  .and(z.union([generateTextBody, agentBody, ttsBody, sttBody]));

export const gatewayDocumentedHeaders = z.object({
  'x-plugin-id': z.string().optional().describe('the plugin to call, instead of `plugin` in the body'),
  'x-payment-method': z.enum(['stripe', 'mpp']).optional().describe('how an unauthenticated caller pays: a one-call checkout or an MPP on-chain payment'),
  'payment-signature': z
    .string()
    .optional()
    .describe(
      'an x402 version 2 `exact` payment (what `@x402/fetch` sends after a 402): base64 JSON `{x402Version: 2, accepted, payload: {authorization, signature}}`, ' +
        'an EIP-3009 `transferWithAuthorization` to the recipient for at least the price, signed by the payer; the service settles it on chain, then serves. Implies `mpp`',
    ),
  'x-payment': z.string().optional().describe('the older name of `payment-signature`, read when that is absent'),
});

/** The gateway's payment headers in its answers (OpenAPI only). */
export const gatewayResponseHeaders = {
  200: {
    'payment-receipt': 'the transaction hash of the on-chain payment (MPP credential, or the settlement of an x402 payment or MPP evm authorization)',
    'payment-response': 'x402: base64 JSON `{success, transaction, network, payer}` of the settlement that paid this call',
  },
  402: {
    'www-authenticate':
      'the MPP challenge: `Payment amount=<price>, currency=<token>, recipient=<address>` (while MPP is offered); with a settler the same challenge goes on with ' +
      'mppx\'s `evm` charge params: `id="<mpp.nonce>", realm="<APP_URL host>", method="evm", intent="charge", request="<base64url JSON {amount (base units), currency, description, methodDetails: {chainId, credentialTypes: [authorization], decimals}, recipient}>", description, expires`',
    'payment-required':
      'x402 version 2: base64 JSON `{x402Version: 2, error, resource: {url, description, mimeType}, accepts: [{scheme: "exact", network: "eip155:<chain id>", asset, amount, payTo, maxTimeoutSeconds, extra: {name, version}}]}` (while MPP is offered and the service has a settler)',
  },
} as const;
