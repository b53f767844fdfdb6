import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DependencyContainer } from 'tsyringe';
import { ChangePassword } from '../../../../application/accounts/change-password.use-case.js';
import { CompleteOAuthSignIn } from '../../../../application/accounts/complete-oauth-sign-in.use-case.js';
import { DeleteAccount } from '../../../../application/accounts/delete-account.use-case.js';
import { GetProfile } from '../../../../application/accounts/get-profile.use-case.js';
import { RegisterUser } from '../../../../application/accounts/register-user.use-case.js';
import { RequestPasswordReset } from '../../../../application/accounts/request-password-reset.use-case.js';
import { ResendVerification } from '../../../../application/accounts/resend-verification.use-case.js';
import { ResetPassword } from '../../../../application/accounts/reset-password.use-case.js';
import { SignIn } from '../../../../application/accounts/sign-in.use-case.js';
import { SignOut } from '../../../../application/accounts/sign-out.use-case.js';
import { StartOAuthSignIn } from '../../../../application/accounts/start-oauth-sign-in.use-case.js';
import { UpdateProfile } from '../../../../application/accounts/update-profile.use-case.js';
import { VerifyEmail } from '../../../../application/accounts/verify-email.use-case.js';
import { GetAgentActivity } from '../../../../application/agents/get-agent-activity.use-case.js';
import { GetAgentAllowance } from '../../../../application/agents/get-agent-allowance.use-case.js';
import { GetAgent } from '../../../../application/agents/get-agent.use-case.js';
import { ListAgentMessages } from '../../../../application/agents/list-agent-messages.use-case.js';
import { ListAgents } from '../../../../application/agents/list-agents.use-case.js';
import { ProvisionAgent } from '../../../../application/agents/provision-agent.use-case.js';
import { ProvisionChannelAgent } from '../../../../application/agents/provision-channel-agent.use-case.js';
import { RemoveAgent } from '../../../../application/agents/remove-agent.use-case.js';
import { ReplaceAgentConfig } from '../../../../application/agents/replace-agent-config.use-case.js';
import { AuthorizeChat } from '../../../../application/ai/authorize-chat.use-case.js';
import { ChatMetering } from '../../../../application/ai/chat-metering.js';
import { CompleteChat } from '../../../../application/ai/complete-chat.use-case.js';
import { EstimateCost } from '../../../../application/ai/estimate-cost.use-case.js';
import { ListModels } from '../../../../application/ai/list-models.use-case.js';
import { ProviderHealth } from '../../../../application/ai/provider-health.js';
import { SelectModel } from '../../../../application/ai/select-model.use-case.js';
import { StreamChat } from '../../../../application/ai/stream-chat.use-case.js';
import { ListCallerModels } from '../../../../application/agents/list-caller-models.use-case.js';
import { StreamAgentReply } from '../../../../application/agents/stream-agent-reply.use-case.js';
import { AuthorizeBestPlanChat } from '../../../../application/ai/authorize-best-plan-chat.use-case.js';
import { CreateApiKey } from '../../../../application/api-keys/create-api-key.use-case.js';
import { DeleteApiKey } from '../../../../application/api-keys/delete-api-key.use-case.js';
import { GetApiKey } from '../../../../application/api-keys/get-api-key.use-case.js';
import { ListApiKeys } from '../../../../application/api-keys/list-api-keys.use-case.js';
import { UpdateApiKey } from '../../../../application/api-keys/update-api-key.use-case.js';
import { IssueToken } from '../../../../application/auth/issue-token.use-case.js';
import { ChangeDevBillingPlan } from '../../../../application/billing/change-dev-billing-plan.use-case.js';
import { CompleteDevCheckout } from '../../../../application/billing/complete-dev-checkout.use-case.js';
import { DisableByok } from '../../../../application/billing/disable-byok.use-case.js';
import { EnableByok } from '../../../../application/billing/enable-byok.use-case.js';
import { GetBilling } from '../../../../application/billing/get-billing.use-case.js';
import { GetCredits } from '../../../../application/billing/get-credits.use-case.js';
import { GetSubscription } from '../../../../application/billing/get-subscription.use-case.js';
import { GetUsageHistory } from '../../../../application/billing/get-usage-history.use-case.js';
import { GetUsage } from '../../../../application/billing/get-usage.use-case.js';
import { ListUnmatchedPayments } from '../../../../application/billing/list-unmatched-payments.use-case.js';
import { OpenBillingPortal } from '../../../../application/billing/open-billing-portal.use-case.js';
import { ReadDevBillingPortal } from '../../../../application/billing/read-dev-billing-portal.use-case.js';
import { ReceivePaymentWebhook } from '../../../../application/billing/receive-payment-webhook.use-case.js';
import { StartCheckout } from '../../../../application/billing/start-checkout.use-case.js';
import { StartOneCallCheckout } from '../../../../application/gateway/start-one-call-checkout.use-case.js';
import { GetHealth } from '../../../../application/health/get-health.use-case.js';
import { GetHeartbeat } from '../../../../application/heartbeat/get-heartbeat.use-case.js';
import { ResetHeartbeat } from '../../../../application/heartbeat/reset-heartbeat.use-case.js';
import { SaveHeartbeat } from '../../../../application/heartbeat/save-heartbeat.use-case.js';
import { CheckTokenGate } from '../../../../application/identity/check-token-gate.use-case.js';
import { IssueWalletNonce } from '../../../../application/identity/issue-wallet-nonce.use-case.js';
import { RefreshSocialSession } from '../../../../application/identity/refresh-social-session.use-case.js';
import { SignInWithWallet } from '../../../../application/identity/sign-in-with-wallet.use-case.js';
import { VerifySocialIdentity } from '../../../../application/identity/verify-social-identity.use-case.js';
import { GetAgentStats } from '../../../../application/instances/get-agent-stats.use-case.js';
import { GetInstanceStats } from '../../../../application/instances/get-instance-stats.use-case.js';
import { GetInstanceToken } from '../../../../application/instances/get-instance-token.use-case.js';
import { GetInstance } from '../../../../application/instances/get-instance.use-case.js';
import { RunInstanceCommand } from '../../../../application/instances/run-instance-command.use-case.js';
import { ReadAgentMemory } from '../../../../application/memory/read-agent-memory.use-case.js';
import { SaveAgentMemory } from '../../../../application/memory/save-agent-memory.use-case.js';
import { GetPlatformMetrics } from '../../../../application/metrics/get-platform-metrics.use-case.js';
import { GetUserMetricsHistory } from '../../../../application/metrics/get-user-metrics-history.use-case.js';
import { GetUserPerformance } from '../../../../application/metrics/get-user-performance.use-case.js';
import { GetUserSummary } from '../../../../application/metrics/get-user-summary.use-case.js';
import { AGENT_SETTINGS } from '../../../../application/ports/agent-settings.port.js';
import { AI_SETTINGS } from '../../../../application/ports/ai-settings.port.js';
import { AUTH_SETTINGS } from '../../../../application/ports/auth-settings.port.js';
import { INSTANCE_SETTINGS } from '../../../../application/ports/instance-settings.port.js';
import { SIGN_IN_METHODS } from '../../../../application/ports/sign-in-methods.port.js';
import { SOCIAL_IDENTITY_SETTINGS } from '../../../../application/ports/social-identity-settings.port.js';
import { DATABASE_PING } from '../../../../application/ports/database-ping.port.js';
import { HOSTED_WALLET_SETTINGS } from '../../../../application/ports/hosted-wallet-settings.port.js';
import { WALLET_BALANCES } from '../../../../application/ports/wallet-balances.port.js';
import { CallSkill } from '../../../../application/skills/call-skill.use-case.js';
import { InstallSkill } from '../../../../application/skills/install-skill.use-case.js';
import { ListSkills } from '../../../../application/skills/list-skills.use-case.js';
import { GetAgentVerification } from '../../../../application/verification/get-agent-verification.use-case.js';
import { UnverifyAgent } from '../../../../application/verification/unverify-agent.use-case.js';
import { VerifyAgent } from '../../../../application/verification/verify-agent.use-case.js';
import { CreateWallet } from '../../../../application/wallets/create-wallet.use-case.js';
import { ExportSeed } from '../../../../application/wallets/export-seed.use-case.js';
import { FindWallet } from '../../../../application/wallets/find-wallet.use-case.js';
import { GetSeedMetadata } from '../../../../application/wallets/get-seed-metadata.use-case.js';
import { GetWallet } from '../../../../application/wallets/get-wallet.use-case.js';
import { CreateWebhookEndpoint } from '../../../../application/webhooks/create-webhook-endpoint.use-case.js';
import { DeleteWebhookEndpoint } from '../../../../application/webhooks/delete-webhook-endpoint.use-case.js';
import { ListWebhookDeliveries } from '../../../../application/webhooks/list-webhook-deliveries.use-case.js';
import { ListWebhookEndpoints } from '../../../../application/webhooks/list-webhook-endpoints.use-case.js';
import { RotateWebhookSecret } from '../../../../application/webhooks/rotate-webhook-secret.use-case.js';
import { CreateAgentSession } from '../../../../application/agents/create-agent-session.use-case.js';
import { GetAgentSession } from '../../../../application/agents/get-agent-session.use-case.js';
import { ListAgentCredentials } from '../../../../application/agents/list-agent-credentials.use-case.js';
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
import { DiscoverGatewayPrices } from '../../../../application/gateway/discover-gateway-prices.use-case.js';
import { AGENT_CHAT_SETTINGS } from '../../../../application/ports/agent-chat-settings.port.js';
import { MAILBOX_SIGNALS } from '../../../../application/ports/agent-mailbox.port.js';
import { CLOCK } from '../../../../application/ports/clock.port.js';
import { GATEWAY_SETTINGS } from '../../../../application/ports/gateway-settings.port.js';
import { AuthorizeRuntimeChat } from '../../../../application/agents/authorize-runtime-chat.use-case.js';
import { RunAgentTool } from '../../../../application/skills/run-agent-tool.use-case.js';
import { CreateAgentSchedule } from '../../../../application/schedules/create-agent-schedule.use-case.js';
import { DeleteAgentSchedule } from '../../../../application/schedules/delete-agent-schedule.use-case.js';
import { ListAgentSchedules } from '../../../../application/schedules/list-agent-schedules.use-case.js';
import { ListScheduleRuns } from '../../../../application/schedules/list-schedule-runs.use-case.js';
import { PrometheusMetrics } from '../plugins/prometheus-metrics.js';
import { accountRoutes } from './accounts.routes.js';
import { agentApiRoutes } from './agent-api.routes.js';
import { agentCallbackRoutes } from './agent-callback.routes.js';
import { agentRoutes } from './agents.routes.js';
import { agentScheduleRoutes } from './agent-schedules.routes.js';
import { aiRoutes } from './ai.routes.js';
import { apiKeyRoutes } from './api-keys.routes.js';
import { billingRoutes } from './billing.routes.js';
import { chatRoutes } from './chat.routes.js';
import { gatewayRoutes } from './gateway.routes.js';
import { gatewayDiscoveryRoutes } from './gateway-discovery.routes.js';
import { healthRoutes } from './health.routes.js';
import { heartbeatRoutes } from './heartbeat.routes.js';
import { instanceRoutes } from './instances.routes.js';
import { memoryRoutes } from './memory.routes.js';
import { metricsRoutes } from './metrics.routes.js';
import { oauthRoutes } from './oauth.routes.js';
import { paymentWebhookRoutes } from './payment-webhook.routes.js';
import { provisionRoutes } from './provision.routes.js';
import { settingsRoutes } from './settings.routes.js';
import { skillRoutes } from './skills.routes.js';
import { socialRoutes } from './social.routes.js';
import { tokenGatingRoutes } from './token-gating.routes.js';
import { walletSignInRoutes } from './wallet-sign-in.routes.js';
import { walletRoutes } from './wallets.routes.js';
import { webhookRoutes } from './webhooks.routes.js';
import { v1Routes } from './v1.routes.js';
import type { RouteEdge } from './route-context.js';

/** One area's routes, added to the server with the edge helpers. */
export type RouteRegistration = (app: FastifyInstance, edge: RouteEdge) => Promise<void>;

/**
 * A plugin registered with the edge and what it declared it needs (its `XRouteDeps`), resolved once
 * here: `deps` is inferred from the plugin alone, so a missing, extra or mistyped one does not compile.
 */
const route =
  <D extends object>(plugin: FastifyPluginAsyncZod<RouteEdge & D>, deps: NoInfer<D>): RouteRegistration =>
  async (app, edge) => {
    await app.register(plugin, { ...edge, ...deps });
  };

/** What the agent's chat routes (POST /api/chat, /api/agent) both use. */
const agentChatDeps = (c: DependencyContainer) => ({
  agentSettings: c.resolve(AGENT_SETTINGS),
  chatSettings: c.resolve(AGENT_CHAT_SETTINGS),
  sendAgentMessage: c.resolve(SendAgentMessage),
});

/**
 * Every area's routes, in the order they are registered, each given what it uses from the
 * container: the one place the HTTP edge resolves anything (a route holds its use cases for the
 * server's life; docs/decisions/0407-routes-resolved-once-at-registration.md). An area adds one entry.
 */
export function routes(c: DependencyContainer): RouteRegistration[] {
  return [
    route(healthRoutes, { getHealth: c.resolve(GetHealth), databasePing: c.resolve(DATABASE_PING) }),
    route(accountRoutes, {
      registerUser: c.resolve(RegisterUser),
      signIn: c.resolve(SignIn),
      signOut: c.resolve(SignOut),
      verifyEmail: c.resolve(VerifyEmail),
      requestPasswordReset: c.resolve(RequestPasswordReset),
      resendVerification: c.resolve(ResendVerification),
      resetPassword: c.resolve(ResetPassword),
      issueToken: c.resolve(IssueToken),
    }),
    route(oauthRoutes, {
      authSettings: c.resolve(AUTH_SETTINGS),
      signInMethods: c.resolve(SIGN_IN_METHODS),
      startOAuthSignIn: c.resolve(StartOAuthSignIn),
      completeOAuthSignIn: c.resolve(CompleteOAuthSignIn),
    }),
    route(settingsRoutes, {
      getProfile: c.resolve(GetProfile),
      updateProfile: c.resolve(UpdateProfile),
      changePassword: c.resolve(ChangePassword),
      deleteAccount: c.resolve(DeleteAccount),
    }),
    route(apiKeyRoutes, {
      listApiKeys: c.resolve(ListApiKeys),
      createApiKey: c.resolve(CreateApiKey),
      getApiKey: c.resolve(GetApiKey),
      updateApiKey: c.resolve(UpdateApiKey),
      deleteApiKey: c.resolve(DeleteApiKey),
    }),
    route(billingRoutes, {
      startCheckout: c.resolve(StartCheckout),
      getBilling: c.resolve(GetBilling),
      getUsageHistory: c.resolve(GetUsageHistory),
      enableByok: c.resolve(EnableByok),
      disableByok: c.resolve(DisableByok),
      getUsage: c.resolve(GetUsage),
      openBillingPortal: c.resolve(OpenBillingPortal),
      getSubscription: c.resolve(GetSubscription),
      startOneCallCheckout: c.resolve(StartOneCallCheckout),
      getCredits: c.resolve(GetCredits),
      listUnmatchedPayments: c.resolve(ListUnmatchedPayments),
      completeDevCheckout: c.resolve(CompleteDevCheckout),
      readDevBillingPortal: c.resolve(ReadDevBillingPortal),
      changeDevBillingPlan: c.resolve(ChangeDevBillingPlan),
    }),
    route(paymentWebhookRoutes, { receivePaymentWebhook: c.resolve(ReceivePaymentWebhook) }),
    route(aiRoutes, {
      aiSettings: c.resolve(AI_SETTINGS),
      chatMetering: c.resolve(ChatMetering),
      providerHealth: c.resolve(ProviderHealth),
      listModels: c.resolve(ListModels),
      selectModel: c.resolve(SelectModel),
      estimateCost: c.resolve(EstimateCost),
      authorizeChat: c.resolve(AuthorizeChat),
      completeChat: c.resolve(CompleteChat),
      streamChat: c.resolve(StreamChat),
    }),
    route(v1Routes, {
      aiSettings: c.resolve(AI_SETTINGS),
      chatMetering: c.resolve(ChatMetering),
      listCallerModels: c.resolve(ListCallerModels),
      authorizeBestPlanChat: c.resolve(AuthorizeBestPlanChat),
      completeChat: c.resolve(CompleteChat),
      streamChat: c.resolve(StreamChat),
      sendAgentMessage: c.resolve(SendAgentMessage),
      streamAgentReply: c.resolve(StreamAgentReply),
    }),
    route(agentRoutes, {
      agentSettings: c.resolve(AGENT_SETTINGS),
      listAgents: c.resolve(ListAgents),
      provisionAgent: c.resolve(ProvisionAgent),
      getAgentAllowance: c.resolve(GetAgentAllowance),
      getAgent: c.resolve(GetAgent),
      replaceAgentConfig: c.resolve(ReplaceAgentConfig),
      listAgentMessages: c.resolve(ListAgentMessages),
      removeAgent: c.resolve(RemoveAgent),
      getAgentStats: c.resolve(GetAgentStats),
      getAgentActivity: c.resolve(GetAgentActivity),
      getAgentVerification: c.resolve(GetAgentVerification),
      verifyAgent: c.resolve(VerifyAgent),
      unverifyAgent: c.resolve(UnverifyAgent),
    }),
    route(agentScheduleRoutes, {
      agentSettings: c.resolve(AGENT_SETTINGS),
      createAgentSchedule: c.resolve(CreateAgentSchedule),
      listAgentSchedules: c.resolve(ListAgentSchedules),
      deleteAgentSchedule: c.resolve(DeleteAgentSchedule),
      listScheduleRuns: c.resolve(ListScheduleRuns),
    }),
    route(provisionRoutes, { provisionChannelAgent: c.resolve(ProvisionChannelAgent) }),
    route(instanceRoutes, {
      instanceSettings: c.resolve(INSTANCE_SETTINGS),
      runInstanceCommand: c.resolve(RunInstanceCommand),
      getInstance: c.resolve(GetInstance),
      getInstanceStats: c.resolve(GetInstanceStats),
      getInstanceToken: c.resolve(GetInstanceToken),
    }),
    route(chatRoutes, {
      ...agentChatDeps(c),
      listAgentMessages: c.resolve(ListAgentMessages),
      mailboxSignals: c.resolve(MAILBOX_SIGNALS),
      authorizeAgentSocket: c.resolve(AuthorizeAgentSocket),
      readAgentMessage: c.resolve(ReadAgentMessage),
      readMessageOutcome: c.resolve(ReadMessageOutcome),
    }),
    route(agentCallbackRoutes, {
      authorizeRuntimeChat: c.resolve(AuthorizeRuntimeChat),
      completeChat: c.resolve(CompleteChat),
      streamChat: c.resolve(StreamChat),
      runAgentTool: c.resolve(RunAgentTool),
      chatMetering: c.resolve(ChatMetering),
    }),
    route(agentApiRoutes, {
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
    }),
    route(skillRoutes, {
      agentSettings: c.resolve(AGENT_SETTINGS),
      listSkills: c.resolve(ListSkills),
      installSkill: c.resolve(InstallSkill),
      callSkill: c.resolve(CallSkill),
    }),
    route(memoryRoutes, { readAgentMemory: c.resolve(ReadAgentMemory), saveAgentMemory: c.resolve(SaveAgentMemory) }),
    route(heartbeatRoutes, {
      getHeartbeat: c.resolve(GetHeartbeat),
      saveHeartbeat: c.resolve(SaveHeartbeat),
      resetHeartbeat: c.resolve(ResetHeartbeat),
    }),
    route(walletSignInRoutes, { issueWalletNonce: c.resolve(IssueWalletNonce), signInWithWallet: c.resolve(SignInWithWallet) }),
    route(webhookRoutes, {
      createWebhookEndpoint: c.resolve(CreateWebhookEndpoint),
      listWebhookEndpoints: c.resolve(ListWebhookEndpoints),
      rotateWebhookSecret: c.resolve(RotateWebhookSecret),
      deleteWebhookEndpoint: c.resolve(DeleteWebhookEndpoint),
      listWebhookDeliveries: c.resolve(ListWebhookDeliveries),
    }),
    route(tokenGatingRoutes, { checkTokenGate: c.resolve(CheckTokenGate) }),
    route(socialRoutes, {
      socialIdentitySettings: c.resolve(SOCIAL_IDENTITY_SETTINGS),
      verifySocialIdentity: c.resolve(VerifySocialIdentity),
      refreshSocialSession: c.resolve(RefreshSocialSession),
    }),
    route(walletRoutes, {
      hostedWalletSettings: c.resolve(HOSTED_WALLET_SETTINGS),
      walletBalances: c.resolve(WALLET_BALANCES),
      getWallet: c.resolve(GetWallet),
      createWallet: c.resolve(CreateWallet),
      getSeedMetadata: c.resolve(GetSeedMetadata),
      exportSeed: c.resolve(ExportSeed),
      findWallet: c.resolve(FindWallet),
    }),
    route(gatewayRoutes, { gatewayCall: c.resolve(CallGatewayPlugin), gatewaySettings: c.resolve(GATEWAY_SETTINGS) }),
    route(gatewayDiscoveryRoutes, { discoverGatewayPrices: c.resolve(DiscoverGatewayPrices) }),
    route(metricsRoutes, {
      getPlatformMetrics: c.resolve(GetPlatformMetrics),
      getUserMetricsHistory: c.resolve(GetUserMetricsHistory),
      getUserPerformance: c.resolve(GetUserPerformance),
      getUserSummary: c.resolve(GetUserSummary),
      prometheus: c.resolve(PrometheusMetrics),
    }),
  ];
}
