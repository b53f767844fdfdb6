import { z } from 'zod';

/** Response bodies of agents, instances, skills, memory and the AI layer. */
const jsonObject = z.record(z.string(), z.unknown());

export const agentItem = z
  .object({ id: z.string(), name: z.string(), model: z.string(), status: z.string(), websocketUrl: z.string(), createdAt: z.string(), updatedAt: z.string() })
  .meta({ id: 'Agent' });
export const agentListResponse = z.object({ agents: z.array(agentItem), count: z.number(), status: z.string().describe('ok') });
export const provisionedListResponse = z.object({ success: z.boolean(), agents: z.array(agentItem), count: z.number() });
export const provisionedResponse = z.object({
  success: z.boolean(),
  agent: z.object({ id: z.string(), name: z.string(), status: z.string(), websocketUrl: z.string(), model: z.string(), createdAt: z.string() }),
});
/** POST /api/agents/:id/remove: `runtimeStopped` when it was the instance's last agent and its runtime stopped. */
export const removedAgentResponse = z.object({ success: z.literal(true), runtimeStopped: z.boolean() });
export const agentDetailResponse = z.object({
  agent: z
    .object({
      id: z.string(),
      status: z.string(),
      startedAt: z.string().nullable(),
      plan: z.string().nullable(),
      subdomain: z.string(),
      url: z.string(),
      runtimeVersion: z.string().nullable(),
      verified: z.boolean(),
      verificationType: z.string().nullable(),
      attestationUid: z.string().nullable(),
      verifiedAt: z.string().nullable(),
    })
    .meta({ id: 'AgentDetail' }),
  status: z.string(),
});
export const agentAllowanceResponse = z.object({
  agents: z.object({ current: z.number(), limit: z.number().nullable().describe('null without a subscribed plan') }),
  models: z.array(z.string()).describe('the provision models, the default first'),
  defaultModel: z.string(),
});
export const agentConfigResponse = z.object({ config: jsonObject });
export const replacedConfigResponse = z.object({ success: z.boolean(), config: jsonObject });
export const agentMessage = z
  .object({
    id: z.string(),
    agentId: z.string(),
    role: z.enum(['user', 'assistant', 'system']),
    content: z.string(),
    channel: z.string(),
    createdAt: z.string(),
    model: z.string().optional().describe("A reply's model, as the runtime reported it (after a fallback, not the agent's)"),
    failure: z
      .object({ code: z.string() })
      .optional()
      .describe('only on a user message whose answer failed, in a history read: the code POST /api/chat answered (PROVIDER_NOT_CONFIGURED, PROVIDER_ERROR, ...)'),
  })
  .meta({ id: 'AgentMessage' });
export const agentMessagesResponse = z.object({ messages: z.array(agentMessage), total: z.number(), limit: z.number(), offset: z.number(), status: z.string() });
/** GET /api/agents/:id/activity: the console's timeline and messages-per-hour chart. */
export const agentActivityResponse = z.object({
  from: z.string().describe('Start of the window (ISO 8601, a whole UTC hour)'),
  to: z.string().describe('End of the window, exclusive'),
  events: z
    .array(
      z.object({
        kind: z.string().describe('provisioned, provision_failed, started, stopped, crashed, repaired, message_failed or heartbeat_skipped'),
        reason: z.string().nullable(),
        durationMs: z.number().nullable(),
        at: z.string(),
      }),
    )
    .describe('Newest first, at most 200; answered messages are counted in messagesPerHour, not listed'),
  messagesPerHour: z.array(z.object({ hour: z.string(), answered: z.number(), failed: z.number() })).describe('One entry per hour of the window, oldest first'),
});
/** The live (`status: ok`) or the mock (`status: mock`) variant of spec "Agent stats"; both carry more figures than these. */
export const agentStatsResponse = z.object({
  stats: z.record(z.string(), z.union([z.string(), z.number()])).describe('agentId, cpu, memory, uptime, messagesProcessed, ... (spec "Agent stats")'),
  status: z.string().describe('`ok` (live) or `mock`'),
});
export const verificationRecordResponse = z.object({
  verified: z.boolean(),
  verificationType: z.string().nullable(),
  attestationUid: z.string().nullable(),
  verifierAddress: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  metadata: z.unknown(),
});
export const verifiedResponse = z.object({
  success: z.boolean(),
  verified: z.boolean(),
  verificationType: z.string().nullable(),
  attestationUid: z.string().nullable(),
  verifiedAt: z.string().nullable(),
});

export const instanceResponse = z.object({ userId: z.string(), status: z.string(), startedAt: z.string(), subdomain: z.string(), url: z.string(), plan: z.string(), runtimeVersion: z.string() });
export const instanceStatsResponse = z.object({ userId: z.string(), cpu: z.string(), memory: z.string(), status: z.string(), plan: z.string(), runtimeVersion: z.string() });
export const instanceTokenResponse = z.object({ token: z.string() });
/** start, stop, restart and update answer `{success, status}`; repair and reset-memory pass the worker's answer through. */
export const lifecycleResponse = z.looseObject({ success: z.boolean().optional(), status: z.string().optional(), message: z.string().optional() });

const skill = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    category: z.string(),
    icon: z.string(),
    author: z.string(),
    downloads: z.number(),
    rating: z.number(),
    featured: z.boolean(),
    manifest: z.unknown().describe('docs/decisions/0083-skill-manifests.md; null while no handler is registered'),
  })
  .meta({ id: 'Skill' });
export const skillsResponse = z.object({ skills: z.array(skill), categories: z.array(z.string()), featured: z.array(skill) });
/** `{success: true}` plus the skill's own fields. */
export const skillCallResponse = z.looseObject({ success: z.boolean() });

export const memoryResponse = z.object({ memory: jsonObject, agentId: z.string(), count: z.number(), lastUpdated: z.string().nullable() });
export const savedMemoryResponse = z.union([
  z.object({ success: z.boolean(), agentId: z.string(), key: z.string().optional(), saved: z.string() }),
  z.object({ success: z.boolean(), agentId: z.string(), keysUpdated: z.number(), saved: z.string() }),
]);

/** POST /api/provision: "the proxy returns only these". */
export const channelProvisionResponse = z.object({ success: z.boolean(), userId: z.string(), subdomain: z.string(), url: z.string(), streamKey: z.string(), liveStreamId: z.string() });
/** POST /api/chat: 200 with the agent's reply, or 202 while it is still working. */
export const chatAnsweredResponse = z.object({ message: agentMessage, reply: agentMessage });
export const chatPendingResponse = z.object({ message: agentMessage, pending: z.boolean() });

/** GET and POST /api/agent answer per `action` (docs/decisions/0075-agent-api-and-sessions.md): sessions, messages, skills, credentials, endpoint list. */
export const agentApiResponse = z.looseObject({}).describe('per action: see docs/decisions/0075-agent-api-and-sessions.md');
/** The runtime's completion (`Accept: text/event-stream`: server-sent events instead) and tool results. */
export const runtimeResultResponse = z.looseObject({}).describe("the model's answer or the tool's result");
