/**
 * Each operation's `operationId` and `summary` in the OpenAPI document, keyed by method and path
 * as the document writes them. Generated clients name their methods after the operationId, so an
 * id is stable: renaming one breaks every client generated from the document. A route may declare
 * its own `operationId` and `summary` in its schema instead; those win over this table.
 * test/http/openapi.test.ts holds every operation named and every line here used.
 */
export const OPERATION_NAMES: Record<string, readonly [operationId: string, summary: string]> = {
  // Health and heartbeat
  'GET /api/health': ['getHealth', "The service's health report"],
  'GET /health': ['getLiveness', 'Liveness for load balancers'],
  'GET /api/heartbeat': ['getHeartbeat', "An agent's heartbeat schedule"],
  'POST /api/heartbeat': ['setHeartbeat', "Set an agent's heartbeat schedule"],
  'DELETE /api/heartbeat': ['deleteHeartbeat', "Remove an agent's heartbeat schedule"],

  // Accounts and sign-in
  'POST /api/register': ['register', 'Create an account'],
  'POST /api/auth/callback/credentials': ['signIn', 'Sign in with email and password'],
  'POST /api/auth/signout': ['signOut', 'Sign out'],
  'GET /api/auth/session': ['getSession', 'The current session'],
  'GET /api/auth/csrf': ['getCsrfToken', 'A CSRF token for state-changing calls'],
  'GET /api/auth/verify-email': ['verifyEmail', 'Verify an email address from its mailed link'],
  'POST /api/auth/forgot-password': ['forgotPassword', 'Mail a password reset link'],
  'POST /api/auth/resend-verification': ['resendVerification', 'Mail the verification link again'],
  'POST /api/auth/reset-password': ['resetPassword', 'Set a new password with a reset token'],
  'POST /api/auth/token': ['issueToken', 'Exchange credentials for a JWT'],
  'GET /api/auth/codehost': ['startCodehostSignIn', 'Start signing in with the code host'],
  'GET /api/auth/callback/codehost': ['finishCodehostSignIn', "The code host's sign-in callback"],
  'GET /api/auth/idp': ['startIdpSignIn', 'Start signing in with the identity provider'],
  'GET /api/auth/callback/idp': ['finishIdpSignIn', "The identity provider's sign-in callback"],
  'GET /api/auth/nonce': ['getWalletNonce', 'A nonce for signing in with a wallet'],
  'POST /api/auth/callback/wallet': ['signInWithWallet', 'Sign in with a wallet signature'],

  // Profile and settings
  'GET /api/settings': ['getSettings', "The caller's profile and settings"],
  'POST /api/settings': ['updateSettingsPost', 'Update the profile and settings (POST form)'],
  'PATCH /api/settings': ['updateSettings', 'Update the profile and settings'],
  'DELETE /api/settings': ['deleteAccount', 'Delete the account and its data'],
  'POST /api/settings/password': ['changePassword', 'Change the password'],

  // API keys
  'GET /api/keys': ['listApiKeys', 'List API keys'],
  'POST /api/keys': ['createApiKey', 'Create an API key'],
  'GET /api/keys/{id}': ['getApiKey', 'One API key'],
  'PATCH /api/keys/{id}': ['updateApiKey', "Change an API key's limits"],
  'DELETE /api/keys/{id}': ['revokeApiKey', 'Revoke an API key'],

  // Billing and payments
  'GET /api/billing': ['getBilling', "The caller's plans and subscriptions"],
  'POST /api/billing': ['billingAction', 'Start a checkout or open the billing portal'],
  'GET /api/billing/subscriptions/{id}': ['getSubscription', 'One subscription'],
  'GET /api/psp/checkout': ['redirectToCheckout', "Go to the processor's checkout for a plan"],
  'GET /api/psp/credits': ['redirectToCreditsCheckout', "Go to the processor's checkout for a credit pack"],
  'POST /api/psp/storage-upgrade': ['startStorageUpgrade', 'Start a storage upgrade checkout'],
  'GET /api/credits': ['getCredits', 'Credit balance and packs'],
  'GET /api/psp/dev/complete': ['completeDevelopmentCheckout', "Complete a checkout of the development processor"],
  'POST /api/checkout': ['legacyCheckout', 'Deprecated checkout'],
  'POST /api/webhooks/psp': ['receivePaymentWebhook', "The payment processor's webhook"],

  // AI layer
  'GET /api/ai/health': ['getAiHealth', "The AI providers' health"],
  'GET /api/ai/models': ['listModels', 'List models'],
  'GET /api/ai/models/{provider}': ['listProviderModels', "List one provider's models"],
  'POST /api/ai/models/select': ['selectModel', 'Pick a model for a task type'],
  'POST /api/ai/estimate-cost': ['estimateCost', "Estimate a call's cost"],
  'POST /api/ai/chat': ['aiChat', 'A chat completion'],

  // Agents
  'GET /api/agents': ['listAgents', "List the caller's agents"],
  'POST /api/agents': ['legacyCreateAgent', 'Deprecated: use provisionAgent'],
  'POST /api/agents/provision': ['provisionAgent', 'Provision an agent'],
  'GET /api/agents/provision': ['getProvisionOptions', 'What provisioning offers'],
  'GET /api/agents/allowance': ['getAgentAllowance', "The caller's agent allowance"],
  'GET /api/agents/{id}': ['getAgent', 'One agent'],
  'PUT /api/agents/{id}': ['legacyUpdateAgent', 'Deprecated agent update'],
  'DELETE /api/agents/{id}': ['legacyDeleteAgent', 'Deprecated agent deletion'],
  'GET /api/agents/{id}/config': ['getAgentConfig', "An agent's config"],
  'PUT /api/agents/{id}/config': ['replaceAgentConfig', "Replace an agent's config"],
  'GET /api/agents/{id}/messages': ['listAgentMessages', "An agent's messages"],
  'GET /api/agents/{id}/stats': ['getAgentStats', "An agent's usage statistics"],
  'GET /api/agents/{id}/verify': ['getAgentVerification', "An agent's verification"],
  'POST /api/agents/{id}/verify': ['verifyAgent', 'Verify an agent'],
  'DELETE /api/agents/{id}/verify': ['removeAgentVerification', "Remove an agent's verification"],
  'GET /api/agents/{id}/logs': ['legacyAgentLogs', 'Deprecated agent logs'],
  'POST /api/provision': ['provision', 'Provision an agent for the caller (one-step form)'],

  // Agent lifecycle and instance
  'POST /api/instance/{userId}/start': ['startInstance', 'Start the instance'],
  'POST /api/instance/{userId}/stop': ['stopInstance', 'Stop the instance'],
  'POST /api/instance/{userId}/restart': ['restartInstance', 'Restart the instance'],
  'POST /api/instance/{userId}/update': ['updateInstance', "Update the instance's runtime"],
  'POST /api/instance/{userId}/repair': ['repairInstance', 'Repair the instance'],
  'POST /api/instance/{userId}/reset-memory': ['resetInstanceMemory', "Clear the memory of the instance's agents"],
  'GET /api/instance/{userId}': ['getInstance', 'The instance'],
  'GET /api/instance/{userId}/stats': ['getInstanceStats', "The instance's resource statistics"],
  'GET /api/instance/{userId}/token': ['getInstanceToken', "The instance's gateway token"],

  // Agent interaction and chat
  'POST /api/chat': ['sendChatMessage', 'Send a message to an agent and await its reply'],
  'GET /api/chat': ['listChatMessages', 'A conversation with an agent'],
  'GET /api/agent': ['agentQuery', 'Read agent endpoints, sessions, memory, skills or credentials'],
  'POST /api/agent': ['agentAction', 'Chat, open a session, toggle a skill or set a credential'],

  // Agent runtime
  'POST /api/runtime/chat': ['runtimeChat', "An agent runtime's AI call"],
  'POST /api/runtime/tools': ['runtimeTool', "An agent runtime's tool call"],

  // Skills
  'GET /api/skills': ['listSkills', 'List skills and what an agent installed'],
  'POST /api/skills': ['installSkill', 'Install or uninstall a skill'],
  'POST /api/skills/{slug}': ['callSkill', "Call a skill's action"],

  // Memory
  'GET /api/memory': ['getAgentMemory', "An agent's memory"],
  'POST /api/memory': ['saveAgentMemory', "Save one or many of an agent's memory values"],

  // Platform
  'GET /api/admin/payments/unmatched': ['listUnmatchedPayments', 'Payments that matched no user'],
  'POST /api/admin/webhooks': ['createWebhookEndpoint', 'Add a webhook endpoint'],
  'GET /api/admin/webhooks': ['listWebhookEndpoints', 'List webhook endpoints'],
  'POST /api/admin/webhooks/{id}/rotate-secret': ['rotateWebhookSecret', "Rotate a webhook endpoint's secret"],
  'DELETE /api/admin/webhooks/{id}': ['deleteWebhookEndpoint', 'Remove a webhook endpoint'],
  'GET /api/admin/webhooks/{id}/deliveries': ['listWebhookDeliveries', "A webhook endpoint's deliveries"],

  // Social identity and token gating
  'POST /api/auth/token-gating/verify': ['verifyTokenGate', 'Check a wallet against a token gate'],
  'GET /api/auth/token-gating/verify': ['getTokenGate', "The token gate's requirements"],
  'POST /api/auth/social/verify': ['verifySocialIdentity', 'Sign in with a social identity token'],
  'GET /api/auth/social/verify': ['getSocialIdentity', 'The social sign-in configuration'],
  'POST /api/auth/social/refresh': ['refreshSocialSession', 'Refresh a social session'],
  'GET /api/auth/social/refresh': ['describeSocialRefresh', 'How to refresh a social session'],

  // Wallets
  'GET /api/wallet': ['getWallet', "The caller's wallet and balances"],
  'POST /api/wallet': ['walletAction', 'A wallet action'],
  'GET /api/wallet/address': ['getWalletAddress', "The caller's wallet address"],
  'POST /api/wallet/create': ['createWallet', 'Create a wallet'],
  'GET /api/wallet/hosted': ['getHostedWallet', 'The hosted wallet'],
  'POST /api/wallet/hosted': ['hostedWalletAction', 'A hosted wallet action'],

  // Gateway
  'OPTIONS /api/v1/gateway': ['describeGateway', "The gateway's plugins and prices"],
  'POST /api/v1/gateway': ['callGateway', 'Call a gateway plugin'],
  'GET /api/v1/gateway/discovery/resources': ['discoverGatewayPrices', "The gateway's plugins and prices, in x402's discovery shape"],
  'GET /api/v1/payments/psp/create': ['createGatewayCheckout', 'A checkout for one prepaid gateway call'],

  // OpenAI-compatible API
  'GET /v1/models': ['listOpenAiModels', 'The models the caller may use, agents included (OpenAI format)'],
  'POST /v1/chat/completions': ['createChatCompletion', 'A chat completion (OpenAI format), streamed or not'],

  // Metrics
  'GET /api/metrics': ['getPlatformMetrics', 'Platform metrics'],
  'GET /api/metrics/{userId}/historical': ['getHistoricalMetrics', "A user's metrics over time"],
  'GET /api/metrics/{userId}/performance': ['getPerformanceMetrics', "A user's performance metrics"],
  'GET /api/metrics/{userId}/summary': ['getMetricsSummary', "A user's metrics summary"],
  'GET /metrics': ['getPrometheusMetrics', 'Prometheus metrics'],
};

type Operation = { operationId?: string; summary?: string };

/** Names every operation of `document` from the table; a route's own names are kept. */
export function nameOperations<T extends { paths?: Record<string, Record<string, unknown>> }>(document: T): T {
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const names = OPERATION_NAMES[`${method.toUpperCase()} ${path}`];
      if (!names || typeof operation !== 'object' || operation === null) continue;
      const op = operation as Operation;
      op.operationId ??= names[0];
      op.summary ??= names[1];
    }
  }
  return document;
}
