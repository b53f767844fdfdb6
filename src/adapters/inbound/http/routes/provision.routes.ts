import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ProvisionChannelAgent } from '../../../../application/agents/provision-channel-agent.use-case.js';
import { AuthRequiredError } from '../../../../application/auth/auth.errors.js';
import { requirePaidPlan } from '../../../../domain/agents/channel-provisioning.js';
import { channelProvisionBody } from '../schemas/provision.schema.js';
import type { RouteEdge } from './route-context.js';
import { channelProvisionResponse } from '../schemas/agents.responses.js';

export interface ProvisionRouteDeps {
  provisionChannelAgent: ProvisionChannelAgent;
}

/**
 * POST /api/provision (spec "POST /api/provision (agent with channel tokens)", CONTRACT.md
 * section 7): the body first (400), then the plan (402 PAYMENT_REQUIRED), then authentication
 * (401), so the route resolves credentials optionally and decides itself. RATE_LIMIT_AUTH per IP.
 */
export const provisionRoutes: FastifyPluginAsyncZod<RouteEdge & ProvisionRouteDeps> = async (app, { provisionChannelAgent, authRateLimit }) => {
  const rateLimit = { max: authRateLimit, timeWindow: '1 minute', keyGenerator: (req: { ip: string }) => `provision:${req.ip}` };

  app.post('/api/provision', { schema: { body: channelProvisionBody, response: { 200: channelProvisionResponse } }, config: { auth: 'optional', rateLimit } }, async (req) => {
    const b = req.body;
    requirePaidPlan(b.plan);
    if (!req.actor) throw new AuthRequiredError();
    const result = await provisionChannelAgent.execute(req.actor, {
      channelTokens: { A: b.channelTokenA, B: b.channelTokenB, C: b.channelTokenC },
      channelUserIdA: b.channelUserIdA,
      aiProvider: b.aiProvider,
      apiKey: b.apiKey,
      plan: b.plan,
      email: b.email,
      paymentSubscriptionId: b.paymentSubscriptionId,
    });
    // spec: "proxy returns only these"
    return { success: true, userId: result.userId, subdomain: result.subdomain, url: result.url, streamKey: result.streamKey, liveStreamId: result.liveStreamId };
  });
};
