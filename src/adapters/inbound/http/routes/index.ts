import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DependencyContainer } from 'tsyringe';
import { CreateAgentSession } from '../../../../application/agents/create-agent-session.use-case.js';
import { GetAgentSession } from '../../../../application/agents/get-agent-session.use-case.js';
import { ListAgentCredentials } from '../../../../application/agents/list-agent-credentials.use-case.js';
import { ListAgentMessages } from '../../../../application/agents/list-agent-messages.use-case.js';
import { ListAgentSessions } from '../../../../application/agents/list-agent-sessions.use-case.js';
import { ListAgentSkills } from '../../../../application/agents/list-agent-skills.use-case.js';
import { AuthorizeAgentSocket } from '../../../../application/agents/authorize-agent-socket.use-case.js';
import { ReadAgentMessage } from '../../../../application/agents/read-agent-message.use-case.js';
import { ReadAgentSessionMemory } from '../../../../application/agents/read-agent-session-memory.use-case.js';
import { ReadMessageOutcome } from '../../../../application/agents/read-message-outcome.use-case.js';
import { SendAgentMessage } from '../../../../application/agents/send-agent-message.use-case.js';
import { SetAgentCredential } from '../../../../application/agents/set-agent-credential.use-case.js';
import { UpdateAgentSkill } from '../../../../application/agents/update-agent-skill.use-case.js';
import { CallGatewayPlugin } from '../../../../application/gateway/call-gateway-plugin.use-case.js';
import { AGENT_CHAT_SETTINGS } from '../../../../application/ports/agent-chat-settings.port.js';
import { MAILBOX_SIGNALS } from '../../../../application/ports/agent-mailbox.port.js';
import { AGENT_SETTINGS } from '../../../../application/ports/agent-settings.port.js';
import { CLOCK } from '../../../../application/ports/clock.port.js';
import { GATEWAY_SETTINGS } from '../../../../application/ports/gateway-settings.port.js';
import { accountRoutes } from './accounts.routes.js';
import { agentApiRoutes } from './agent-api.routes.js';
import { agentRoutes } from './agents.routes.js';
import { aiRoutes } from './ai.routes.js';
import { apiKeyRoutes } from './api-keys.routes.js';
import { billingRoutes } from './billing.routes.js';
import { chatRoutes } from './chat.routes.js';
import { gatewayRoutes } from './gateway.routes.js';
import { healthRoutes } from './health.routes.js';
import { heartbeatRoutes } from './heartbeat.routes.js';
import { instanceRoutes } from './instances.routes.js';
import { memoryRoutes } from './memory.routes.js';
import { metricsRoutes } from './metrics.routes.js';
import { oauthRoutes } from './oauth.routes.js';
import { paymentWebhookRoutes } from './payment-webhook.routes.js';
import { provisionRoutes } from './provision.routes.js';
import type { RouteContext, RouteEdge } from './route-context.js';
import { agentCallbackRoutes } from './agent-callback.routes.js';
import { AuthorizeRuntimeChat } from '../../../../application/agents/authorize-runtime-chat.use-case.js';
import { ChatMetering } from '../../../../application/ai/chat-metering.js';
import { CompleteChat } from '../../../../application/ai/complete-chat.use-case.js';
import { StreamChat } from '../../../../application/ai/stream-chat.use-case.js';
import { RunAgentTool } from '../../../../application/skills/run-agent-tool.use-case.js';
import { settingsRoutes } from './settings.routes.js';
import { skillRoutes } from './skills.routes.js';
import { tokenGatingRoutes } from './token-gating.routes.js';
import { walletSignInRoutes } from './wallet-sign-in.routes.js';
import { socialRoutes } from './social.routes.js';
import { walletRoutes } from './wallets.routes.js';
import { webhookRoutes } from './webhooks.routes.js';

/**
 * A plugin handed its use cases in its options, given them from the container here, once, when it
 * is registered. Only the plugins already written so (gateway, chat, /api/agent) until all are.
 */
const withDeps =
  <D>(plugin: FastifyPluginAsyncZod<RouteEdge & D>, deps: (c: DependencyContainer) => D) =>
  async (app: FastifyInstance, { container, ...edge }: RouteContext): Promise<void> =>
    plugin(app.withTypeProvider<ZodTypeProvider>(), { ...edge, ...deps(container) });

const agentChatDeps = (c: DependencyContainer) => ({
  agentSettings: c.resolve(AGENT_SETTINGS),
  chatSettings: c.resolve(AGENT_CHAT_SETTINGS),
  sendAgentMessage: c.resolve(SendAgentMessage),
});

/** Every area's routes, registered in this order with the same context. An area adds one line. */
export const ROUTES: ((app: FastifyInstance, ctx: RouteContext) => Promise<void>)[] = [
  healthRoutes as never,
  accountRoutes as never,
  oauthRoutes as never,
  settingsRoutes as never,
  apiKeyRoutes as never,
  billingRoutes as never,
  paymentWebhookRoutes as never,
  aiRoutes as never,
  agentRoutes as never,
  provisionRoutes as never,
  instanceRoutes as never,
  withDeps(chatRoutes, (c) => ({
    ...agentChatDeps(c),
    listAgentMessages: c.resolve(ListAgentMessages),
    mailboxSignals: c.resolve(MAILBOX_SIGNALS),
    authorizeAgentSocket: c.resolve(AuthorizeAgentSocket),
    readAgentMessage: c.resolve(ReadAgentMessage),
    readMessageOutcome: c.resolve(ReadMessageOutcome),
  })),
  withDeps(agentCallbackRoutes, (c) => ({
    authorizeRuntimeChat: c.resolve(AuthorizeRuntimeChat),
    completeChat: c.resolve(CompleteChat),
    streamChat: c.resolve(StreamChat),
    runAgentTool: c.resolve(RunAgentTool),
    chatMetering: c.resolve(ChatMetering),
  })),
  withDeps(agentApiRoutes, (c) => ({
    ...agentChatDeps(c),
    clock: c.resolve(CLOCK),
    listAgentSessions: c.resolve(ListAgentSessions),
    getAgentSession: c.resolve(GetAgentSession),
    readAgentSessionMemory: c.resolve(ReadAgentSessionMemory),
    listAgentSkills: c.resolve(ListAgentSkills),
    listAgentCredentials: c.resolve(ListAgentCredentials),
    createAgentSession: c.resolve(CreateAgentSession),
    updateAgentSkill: c.resolve(UpdateAgentSkill),
    setAgentCredential: c.resolve(SetAgentCredential),
  })),
  skillRoutes as never,
  memoryRoutes as never,
  heartbeatRoutes as never,
  walletSignInRoutes as never,
  webhookRoutes as never,
  tokenGatingRoutes as never,
  socialRoutes as never,
  walletRoutes as never,
  withDeps(gatewayRoutes, (c) => ({ gatewayCall: c.resolve(CallGatewayPlugin), gatewaySettings: c.resolve(GATEWAY_SETTINGS) })),
  metricsRoutes as never,
];
