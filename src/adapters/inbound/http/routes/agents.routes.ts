import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AgentSettings } from '../../../../application/ports/agent-settings.port.js';
import type { GetAgentActivity } from '../../../../application/agents/get-agent-activity.use-case.js';
import type { GetAgentAllowance } from '../../../../application/agents/get-agent-allowance.use-case.js';
import type { ProvisionAgent } from '../../../../application/agents/provision-agent.use-case.js';
import type { GetAgent } from '../../../../application/agents/get-agent.use-case.js';
import type { ListAgentMessages } from '../../../../application/agents/list-agent-messages.use-case.js';
import type { ListAgents } from '../../../../application/agents/list-agents.use-case.js';
import type { RemoveAgent } from '../../../../application/agents/remove-agent.use-case.js';
import type { ReplaceAgentConfig } from '../../../../application/agents/replace-agent-config.use-case.js';
import type { GetAgentStats } from '../../../../application/instances/get-agent-stats.use-case.js';
import type { GetAgentVerification } from '../../../../application/verification/get-agent-verification.use-case.js';
import type { UnverifyAgent } from '../../../../application/verification/unverify-agent.use-case.js';
import type { VerifyAgent } from '../../../../application/verification/verify-agent.use-case.js';
import { agentStatsLive, agentStatsMock } from '../presenters/instance-presenters.js';
import { agentDetail, agentListItem, agentMessageBody, provisionedAgent } from '../presenters/agent-presenters.js';
import { HttpEdgeError } from '../http-error.js';
import { activityQuery, agentConfigBody, agentParams, messagesQuery, provisionBody } from '../schemas/agents.schema.js';
import { verifyBody } from '../schemas/verification.schema.js';
import { verificationRecordBody, verifiedBody } from '../presenters/verification-presenters.js';
import type { RouteEdge } from './route-context.js';
import { agentActivityResponse, agentAllowanceResponse, agentConfigResponse, agentDetailResponse, agentListResponse, agentMessagesResponse, agentStatsResponse, provisionedListResponse, provisionedResponse, removedAgentResponse, replacedConfigResponse, verificationRecordResponse, verifiedResponse } from '../schemas/agents.responses.js';
import { errorBody, successBody } from '../schemas/error.schema.js';

/** Deprecated routes (spec Versioning) and where their callers should go (CONTRACT.md section 7: 410). */
const DEPRECATED = [
  { method: 'POST', url: '/api/agents', use: '/api/agents/provision' },
  { method: 'PUT', url: '/api/agents/:id', use: '/api/agents/:id/config' },
  { method: 'DELETE', url: '/api/agents/:id', use: 'POST /api/agents/:id/remove' },
  { method: 'GET', url: '/api/agents/:id/logs', use: '/api/agents/:id/messages' },
] as const;

export interface AgentRouteDeps {
  agentSettings: AgentSettings;
  listAgents: ListAgents;
  provisionAgent: ProvisionAgent;
  getAgentAllowance: GetAgentAllowance;
  getAgent: GetAgent;
  replaceAgentConfig: ReplaceAgentConfig;
  listAgentMessages: ListAgentMessages;
  removeAgent: RemoveAgent;
  getAgentStats: GetAgentStats;
  getAgentActivity: GetAgentActivity;
  getAgentVerification: GetAgentVerification;
  verifyAgent: VerifyAgent;
  unverifyAgent: UnverifyAgent;
}

/**
 * /api/agents (spec "Agents", S: a session, an API key or a JWT). Every route shares one
 * RATE_LIMIT_AGENTS budget per caller (per IP without one).
 */
export const agentRoutes: FastifyPluginAsyncZod<RouteEdge & AgentRouteDeps> = async (app, { agentSettings: settings, listAgents, provisionAgent, getAgentAllowance, getAgent, replaceAgentConfig, listAgentMessages, removeAgent, getAgentStats, getAgentActivity, getAgentVerification, verifyAgent, unverifyAgent }) => {
  // One limiter (one counter per caller) for every route below; a route-level hook runs after authentication.
  const onRequest = app.rateLimit({ max: settings.rateLimitPerMinute, timeWindow: '1 minute', keyGenerator: (req) => `agents:${req.actor?.userId ?? req.ip}` });
  const config = { auth: 'required' as const };

  // spec: "with no session returns an empty list, not 401"
  app.get('/api/agents', { onRequest, schema: { response: { 200: agentListResponse } }, config: { auth: 'optional' } }, async (req) => {
    const agents = req.actor ? await listAgents.execute(req.actor) : [];
    return { agents: agents.map((a) => agentListItem(settings.appUrl, a)), count: agents.length, status: 'ok' };
  });

  app.post('/api/agents/provision', { onRequest, schema: { body: provisionBody, response: { 201: provisionedResponse } }, config }, async (req, reply) => {
    const agent = await provisionAgent.execute(req.actor!, req.body);
    return reply.status(201).send({ success: true, agent: provisionedAgent(settings.appUrl, agent) });
  });

  app.get('/api/agents/provision', { onRequest, schema: { response: { 200: provisionedListResponse } }, config }, async (req) => {
    const agents = await listAgents.execute(req.actor!);
    return { success: true, agents: agents.map((a) => agentListItem(settings.appUrl, a)), count: agents.length };
  });

  // not in the spec: what provisioning would allow (the web console's "N of M agents" and its model choice)
  app.get('/api/agents/allowance', { onRequest, schema: { response: { 200: agentAllowanceResponse } }, config }, async (req) => {
    const a = await getAgentAllowance.execute(req.actor!);
    return { agents: { current: a.current, limit: a.limit }, models: [...a.models], defaultModel: a.defaultModel };
  });

  app.get('/api/agents/:id', { onRequest, schema: { params: agentParams, response: { 200: agentDetailResponse } }, config }, async (req) => {
    const { agent, instance } = await getAgent.execute(req.actor!, req.params.id);
    return { agent: agentDetail(settings.appUrl, agent, instance), status: 'ok' };
  });

  app.get('/api/agents/:id/config', { onRequest, schema: { params: agentParams, response: { 200: agentConfigResponse } }, config }, async (req) => {
    const { agent } = await getAgent.execute(req.actor!, req.params.id);
    return { config: agent.config };
  });

  app.put('/api/agents/:id/config', { onRequest, schema: { params: agentParams, body: agentConfigBody, response: { 200: replacedConfigResponse } }, config }, async (req) => {
    const replaced = await replaceAgentConfig.execute(req.actor!, req.params.id, req.body);
    return { success: true, config: replaced };
  });

  app.get('/api/agents/:id/messages', { onRequest, schema: { params: agentParams, querystring: messagesQuery, response: { 200: agentMessagesResponse } }, config }, async (req) => {
    const { limit, offset } = req.query;
    const page = await listAgentMessages.execute(req.actor!, req.params.id, { limit, offset });
    return { messages: page.messages.map(agentMessageBody), total: page.total, limit, offset, status: 'ok' };
  });

  // CONTRACT.md section 7 "removing an agent": the agent and all that is its, in one transaction
  app.post('/api/agents/:id/remove', {
    onRequest,
    schema: { summary: 'Remove an agent and all its data', operationId: 'removeAgent', params: agentParams, response: { 200: removedAgentResponse } },
    config,
  }, async (req) => {
    const { runtimeStopped } = await removeAgent.execute(req.actor!, req.params.id);
    return { success: true as const, runtimeStopped };
  });

  // spec "Agent stats": live from the runtime through its owning worker; the mock variant only when it does not answer
  app.get('/api/agents/:id/stats', { onRequest, schema: { params: agentParams, response: { 200: agentStatsResponse } }, config }, async (req) => {
    const r = await getAgentStats.execute(req.actor!, req.params.id);
    return r.live ? { stats: agentStatsLive(r.agent, r.runtime, r.figures), status: 'ok' } : { stats: agentStatsMock(r.agent, r.figures, r.at), status: 'mock' };
  });

  // spec "Verification" states; the blank auth cells are the owner's (CONTRACT.md section 4)
  // not in the spec: the console's activity timeline and messages-per-hour chart, from the stored events
  app.get('/api/agents/:id/activity', {
    onRequest,
    schema: { summary: "An agent's recent events and messages per hour", operationId: 'getAgentActivity', params: agentParams, querystring: activityQuery, response: { 200: agentActivityResponse } },
    config,
  }, async (req) => {
    const a = await getAgentActivity.execute(req.actor!, req.params.id, req.query.hours);
    return {
      from: a.from.toISOString(),
      to: a.to.toISOString(),
      events: a.events.map((e) => ({ kind: e.kind, reason: e.reason, durationMs: e.durationMs, at: e.at.toISOString() })),
      messagesPerHour: a.messagesPerHour.map((h) => ({ hour: h.hour.toISOString(), answered: h.answered, failed: h.failed })),
    };
  });

  app.get('/api/agents/:id/verify', { onRequest, schema: { params: agentParams, response: { 200: verificationRecordResponse } }, config }, async (req) =>
    verificationRecordBody(await getAgentVerification.execute(req.actor!, req.params.id)),
  );

  app.post('/api/agents/:id/verify', { onRequest, schema: { params: agentParams, body: verifyBody, response: { 200: verifiedResponse } }, config }, async (req) =>
    verifiedBody(await verifyAgent.execute(req.actor!, req.params.id, req.body)),
  );

  app.delete('/api/agents/:id/verify', { onRequest, schema: { params: agentParams, response: { 200: successBody } }, config }, async (req) => {
    await unverifyAgent.execute(req.actor!, req.params.id);
    return { success: true };
  });

  for (const d of DEPRECATED) {
    app.route({
      method: d.method,
      url: d.url,
      onRequest,
      schema: { response: { 410: errorBody } },
      config: { auth: 'none' },
      handler: async () => {
        throw new HttpEdgeError('DEPRECATED', `${d.method} ${d.url} is gone: use ${d.use}`, { use: d.use });
      },
    });
  }
};
