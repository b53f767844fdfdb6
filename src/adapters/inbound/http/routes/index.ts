import type { FastifyInstance } from 'fastify';
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
import type { RouteContext } from './route-context.js';
import { agentCallbackRoutes, type AgentCallbackRouteDeps } from './agent-callback.routes.js';
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
  chatRoutes as never,
  // handed its use cases when registered (until this list is replaced, resolved here from the container)
  async (app, { container, ...edge }) => {
    const deps: AgentCallbackRouteDeps = {
      authorizeRuntimeChat: container.resolve(AuthorizeRuntimeChat),
      completeChat: container.resolve(CompleteChat),
      streamChat: container.resolve(StreamChat),
      runAgentTool: container.resolve(RunAgentTool),
      chatMetering: container.resolve(ChatMetering),
    };
    await app.register(agentCallbackRoutes as never, { ...edge, ...deps });
  },
  agentApiRoutes as never,
  skillRoutes as never,
  memoryRoutes as never,
  heartbeatRoutes as never,
  walletSignInRoutes as never,
  webhookRoutes as never,
  tokenGatingRoutes as never,
  socialRoutes as never,
  walletRoutes as never,
  gatewayRoutes as never,
  metricsRoutes as never,
];
