import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DiscoverGatewayPrices } from '../../../../application/gateway/discover-gateway-prices.use-case.js';
import { errorBody } from '../schemas/error.schema.js';
import { gatewayDiscoveryQuery, gatewayDiscoveryResponse } from '../schemas/gateway-discovery.schema.js';
import type { RouteEdge } from './route-context.js';

export interface GatewayDiscoveryRouteDeps {
  discoverGatewayPrices: DiscoverGatewayPrices;
}

/**
 * The gateway's prices, public and readable from any origin (decision 0436): x402's discovery
 * resources list, one item per plugin, none while MPP is not offered. A node that cannot tell the
 * token's EIP-712 domain: the error map's 502.
 */
export const gatewayDiscoveryRoutes: FastifyPluginAsyncZod<RouteEdge & GatewayDiscoveryRouteDeps> = async (app, { discoverGatewayPrices }) => {
  app.get(
    '/api/v1/gateway/discovery/resources',
    { schema: { querystring: gatewayDiscoveryQuery, response: { 200: gatewayDiscoveryResponse, 400: errorBody, 502: errorBody } }, config: { auth: 'none' } },
    async (req, reply) => {
      reply.header('access-control-allow-origin', '*');
      const { type, limit, offset } = req.query;
      const doc = await discoverGatewayPrices.execute({ limit, offset });
      // only `http` resources exist: another type lists none
      return type === undefined || type === 'http' ? doc : { ...doc, items: [], pagination: { ...doc.pagination, total: 0 } };
    },
  );
};
