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
});
