import { randomBytes } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { AI_PROVIDER_NAMES } from '../../src/domain/ai/ai-model.js';
import { startFakeFleet } from '../support/ai/fake-ai-fleet.js';
import { hi, subscribe } from '../support/ai/chat-fixtures.js';
import { bearer, call, lastMailTo, signUpAndIn, signUpVerifiedAndIn, tokenFrom, uniqueEmail, type SignedIn } from '../support/http-client.js';
import { checkoutCompletedEvent, checkoutSession, signedStripeEvent } from '../support/payments/stripe-events.js';
import { echoPlugins } from '../support/gateway/echo-plugin.js';
import { startSocialIssuer } from '../support/identity/fake-social-issuer.js';
import { startTestApp } from '../support/test-app.js';
import { startLocalChain } from '../support/chain/local-chain.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';

/**
 * Every implemented endpoint's response held against the spec's field names
 * (/work/shared/spec/interface-spec.md), plus the additions CONTRACT.md or docs/decisions decide.
 * A shape lists the exact keys: a misnamed, missing or unannounced field fails its row.
 *
 * `true` is any value; an object is a nested shape; `[shape]` is a non-empty array of that shape.
 */
type Shape = true | { readonly [key: string]: Shape } | readonly [Shape];

const SECRET = `whsec_${randomBytes(24).toString('base64url')}`;
const fleet = await startFakeFleet(['openrouter', 'openai']);
afterAll(() => fleet.close());
const ADMIN = uniqueEmail('shapes-admin');
// Token gating and wallet sign-in read a real chain: anvil with the gating ERC-20.
const chain = await startLocalChain();
const gateToken = await chain.deploy('TestERC20', ['Gate Token', 'GATE', 6]);
const socialIssuer = await startSocialIssuer();
// No worker runs here: a command to a runtime (the stop after removing an agent, which since
// provisioning makes the instance is always sent) goes unanswered, so it waits 1 s, not the 30 s
// default that equals the test's own timeout.
/** Agent hosts may run beside this service (the process runtime): its Prometheus text needs the token. */
const METRICS_BEARER = 'spec-shapes-metrics-token-0123456789';
const { app, infra } = await startTestApp({
  env: { ...fleet.env, ...socialIssuer.env, BASE_RPC_URL: chain.rpcUrl, TOKEN_GATE_ADDRESS: gateToken.address, ADMIN_EMAILS: ADMIN, STRIPE_WEBHOOK_SECRET: SECRET, HEALTH_DEGRADED_PERCENT: '100', HEALTH_UNHEALTHY_PERCENT: '100', RATE_LIMIT_CHAT: '10000', METRICS_TOKEN: METRICS_BEARER, AGENT_REPLY_TIMEOUT_MS: '100', INSTANCE_COMMAND_TIMEOUT_MS: '1000' },
  // INSTANCE_COMMAND_TIMEOUT_MS: no worker runs here, so removing a last agent waits that long for its runtime's stop (30 s by default, the test's own limit)
  // the gateway's rows need a plugin to answer: a small real one (test/support/gateway)
  override: echoPlugins('generate-text').register,
});
const owner = infra.pools.owner;

/** A signed-in user with an API key and an active `label` subscription. */
async function subscriber() {
  const user = await signUpAndIn(app);
  const key = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'shapes' } })).body;
  const sub = await subscribe(owner, user.id, 'label');
  return { user, key, sub };
}
const shared = await subscriber();
/** A subscriber's agent with one stored message. */
const agentOwner = await subscriber();
const sharedAgent = (await call(app, { method: 'POST', url: '/api/agents/provision', headers: agentOwner.user.headers, payload: { name: 'Shapes', config: { systemPrompt: 'hi' } } })).body.agent;
await owner.query(`insert into agent_messages (agent_id, user_id, role, content) values ($1, $2, 'user', 'hello')`, [sharedAgent.id, agentOwner.user.id]);
/** A user whose wallet the wallet rows create and read. */
const walleter = await signUpAndIn(app);
/** A second agent marked running with no worker to answer: POST /api/chat waits AGENT_REPLY_TIMEOUT_MS, then 202. */
const runningAgent = (await call(app, { method: 'POST', url: '/api/agents/provision', headers: shared.user.headers, payload: { name: 'Waiting' } })).body.agent;
await owner.query(`update agents set status = 'running' where id = $1`, [runningAgent.id]);
/** A session of the shared agent with one message, and a credential (GET /api/agent rows). */
const sharedSession = (await owner.query(`insert into agent_sessions (agent_id, user_id) values ($1, $2) returning id`, [sharedAgent.id, agentOwner.user.id])).rows[0].id as string;
await owner.query(`insert into agent_messages (agent_id, user_id, role, content, session_id) values ($1, $2, 'user', 'in a session', $3)`, [sharedAgent.id, agentOwner.user.id, sharedSession]);

/** The shared agent's installed skill (idempotent: any row may install it first). */
const installSharedSkill = async () => {
  const res = await call(app, { method: 'POST', url: '/api/skills', headers: agentOwner.user.headers, payload: { skillId: 'email', agentId: sharedAgent.id } });
  if (res.status !== 200) throw new Error(`install failed: ${res.status}`);
};

const mailToken = async (email: string) => tokenFrom((await lastMailTo(owner, email))!.text);
const post = (user: SignedIn, url: string, payload: object): InjectOptions => ({ method: 'POST', url, headers: user.headers, payload });
const get = (user: SignedIn, url: string): InjectOptions => ({ method: 'GET', url, headers: { cookie: user.cookie } });
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

const MODEL: Shape = { id: true, name: true, provider: true, description: true, tags: true, inputCost: true, outputCost: true, contextWindow: true, available: true };
const PROFILE: Shape = {
  ...{ id: true, email: true, name: true, plan: true, credits: true, twoFactorEnabled: true },
  // CONTRACT.md 7 "profile"; `notifications`: spec PATCH /api/settings takes it, CONTRACT.md 7 "notifications"
  ...{ referralCode: true, emailVerified: true, notifications: true },
};
// CONTRACT.md "API keys people can hand out": the key's limits, and its units used today
const KEY_LIMITS: Shape = { dailyUnits: true, models: true, expiresAt: true, rateLimit: true };
/** CONTRACT.md "scheduled runs": a schedule as listed. */
const SCHEDULE: Shape = { id: true, cron: true, timezone: true, content: true, nextRunAt: true };
const KEY_LISTED: Shape = { id: true, name: true, keyPreview: true, createdAt: true, lastUsed: true, ...KEY_LIMITS, unitsUsed: true };
// CONTRACT.md 5 (GET /api/billing lists subscriptions) plus `updatedAt` (docs/decisions/0043-billing-endpoints.md)
const SUBSCRIPTION: Shape = { id: true, kind: true, plan: true, catalog: true, status: true, currentPeriodEnd: true, updatedAt: true };
const PLAN: Shape = { name: true, price: true, dailyUnits: true, features: true };
const USAGE: Shape = { dailyUnits: true, used: true, remaining: true };
const ERROR: Shape = { error: true, code: true };

/** The admin of the admin-only rows: registered once, with the address verified (an unverified ADMIN_EMAILS address is no admin's). */
let hookAdmin: Promise<SignedIn> | null = null;
const webhookAdmin = () => (hookAdmin ??= signUpVerifiedAndIn(app, owner, { email: ADMIN }));
let hookId: string | null = null;
const hookEndpoint = async () =>
  (hookId ??= (await call(app, { method: 'POST', url: '/api/admin/webhooks', headers: (await webhookAdmin()).headers, payload: { url: 'https://hooks.example.com/shared', eventTypes: ['user.updated'] } })).body.id as string);
const WEBHOOK_ENDPOINT: Shape = { id: true, url: true, eventTypes: true, description: true, createdAt: true, secretRotatedAt: true };
const AGENT_MESSAGE: Shape = { id: true, agentId: true, role: true, content: true, channel: true, createdAt: true };
// docs/decisions/0075-agent-api-and-sessions.md: /api/agent sessions and their messages (the agent message plus its sessionId)
const AGENT_SESSION: Shape = { id: true, agentId: true, createdAt: true, lastMessageAt: true, messageCount: true };
const SESSION_MESSAGE: Shape = { id: true, agentId: true, role: true, content: true, channel: true, sessionId: true, createdAt: true };
// CONTRACT.md 7 "installed skill" plus `enabled` (docs/decisions/0080-skill-installs.md)
const INSTALLED_SKILL: Shape = { agentId: true, skillId: true, installedAt: true, enabled: true };
const SKILL: Shape = { id: true, name: true, description: true, category: true, icon: true, author: true, downloads: true, rating: true, featured: true, manifest: true };
const AGENT: Shape = { id: true, name: true, model: true, status: true, websocketUrl: true, createdAt: true, updatedAt: true };
const DEPRECATED: Shape = { ...ERROR, use: true };
// spec "Lifecycle failure body" plus the usual error and code
const LIFECYCLE_FAILURE: Shape = { success: true, status: true, ...ERROR };

interface Row {
  /** Where the fields come from. */
  spec: string;
  name: string;
  send: () => Promise<InjectOptions> | InjectOptions;
  status: number;
  /** The body's shape; a string for a non-JSON body; omitted for a redirect. */
  shape?: Shape | string;
  location?: boolean;
}

const ROWS: Row[] = [
  // Health and heartbeat
  {
    spec: 'Health and heartbeat: GET /api/health',
    name: 'GET /api/health',
    send: () => ({ method: 'GET', url: '/api/health' }),
    status: 200,
    shape: { status: true, health: true, timestamp: true, cpu: { usage: true, cores: true }, memory: { usage: true, total: true, used: true, free: true }, uptime: true },
  },
  // spec: "/health for platform health checks", body not shown: ours is {status, database, timestamp}
  { spec: 'Health and heartbeat: /health (body not shown)', name: 'GET /health', send: () => ({ method: 'GET', url: '/health' }), status: 200, shape: { status: true, database: true, timestamp: true } },

  // Accounts and sign-in
  {
    spec: 'Accounts and sign-in: POST /api/register',
    name: 'POST /api/register',
    send: () => ({ method: 'POST', url: '/api/register', payload: { email: uniqueEmail(), password: 'long enough pass' } }),
    status: 201,
    shape: { id: true, email: true, name: true },
  },
  {
    spec: 'Errors (400) + CONTRACT.md 8 (VALIDATION_ERROR with details)',
    name: 'POST /api/register, bad body',
    send: () => ({ method: 'POST', url: '/api/register', payload: { email: 'nope' } }),
    status: 400,
    shape: { ...ERROR, details: true },
  },
  {
    spec: 'CONTRACT.md 4: POST /api/auth/callback/credentials',
    name: 'POST /api/auth/callback/credentials',
    send: () => ({ method: 'POST', url: '/api/auth/callback/credentials', payload: { email: shared.user.email, password: shared.user.password } }),
    status: 200,
    shape: { user: { id: true, email: true, name: true } },
  },
  {
    spec: 'CONTRACT.md 4: wrong credentials',
    name: 'POST /api/auth/callback/credentials, wrong password',
    send: () => ({ method: 'POST', url: '/api/auth/callback/credentials', payload: { email: shared.user.email, password: 'wrong password!' } }),
    status: 401,
    shape: ERROR,
  },
  // OAuth is not configured here: its redirects and callbacks are held in oauth-sign-in.test.ts
  {
    spec: 'Accounts and sign-in: GET /api/auth/codehost, client id and secret not configured',
    name: 'GET /api/auth/codehost',
    send: () => ({ method: 'GET', url: '/api/auth/codehost' }),
    status: 503,
    shape: { ...ERROR, provider: true },
  },
  {
    spec: 'Accounts and sign-in: GET /api/auth/idp, client id and secret not configured',
    name: 'GET /api/auth/idp',
    send: () => ({ method: 'GET', url: '/api/auth/idp' }),
    status: 503,
    shape: { ...ERROR, provider: true },
  },
  {
    spec: 'CONTRACT.md 2: the OAuth callback, provider not configured',
    name: 'GET /api/auth/callback/codehost',
    send: () => ({ method: 'GET', url: '/api/auth/callback/codehost?code=abc&state=def' }),
    status: 503,
    shape: { ...ERROR, provider: true },
  },
  {
    spec: 'CONTRACT.md 2: the OAuth callback, provider not configured',
    name: 'GET /api/auth/callback/idp',
    send: () => ({ method: 'GET', url: '/api/auth/callback/idp?code=abc&state=def' }),
    status: 503,
    shape: { ...ERROR, provider: true },
  },
  { spec: 'CONTRACT.md 4: GET /api/auth/session (signed in)', name: 'GET /api/auth/session', send: () => get(shared.user, '/api/auth/session'), status: 200, shape: { user: { id: true, email: true, role: true } } },
  { spec: 'CONTRACT.md 4: GET /api/auth/session ({user: null})', name: 'GET /api/auth/session, anonymous', send: () => ({ method: 'GET', url: '/api/auth/session' }), status: 200, shape: { user: true } },
  { spec: 'CONTRACT.md 4: GET /api/auth/csrf', name: 'GET /api/auth/csrf', send: () => get(shared.user, '/api/auth/csrf'), status: 200, shape: { csrfToken: true } },
  {
    spec: 'CONTRACT.md 4: POST /api/auth/token',
    name: 'POST /api/auth/token',
    send: () => ({ method: 'POST', url: '/api/auth/token', headers: bearer(shared.key.key) }),
    status: 200,
    shape: { token: true, tokenType: true, expiresIn: true },
  },
  {
    spec: 'CONTRACT.md 4: POST /api/auth/signout (body not shown: {success})',
    name: 'POST /api/auth/signout',
    send: async () => post(await signUpAndIn(app), '/api/auth/signout', {}),
    status: 200,
    shape: { success: true },
  },
  // Decentralized social identity; `refreshToken`: CONTRACT.md 7 "social session"
  {
    spec: 'Decentralized social identity: POST /api/auth/social/verify + CONTRACT.md 7 refreshToken',
    name: 'POST /api/auth/social/verify',
    send: async () => ({ method: 'POST', url: '/api/auth/social/verify', payload: { fidToken: await socialIssuer.token() } }),
    status: 200,
    shape: { success: true, sessionToken: true, address: true, message: true, tokenGated: true, accessLevel: true, refreshToken: true },
  },
  {
    spec: 'Decentralized social identity: 401 missing token',
    name: 'POST /api/auth/social/verify, missing token',
    send: () => ({ method: 'POST', url: '/api/auth/social/verify', payload: {} }),
    status: 401,
    shape: ERROR,
  },
  {
    spec: 'Decentralized social identity: POST /api/auth/social/refresh + CONTRACT.md 7 (the rotated refreshToken)',
    name: 'POST /api/auth/social/refresh',
    send: async () => {
      const signedIn = await call(app, { method: 'POST', url: '/api/auth/social/verify', payload: { fidToken: await socialIssuer.token() } });
      return { method: 'POST', url: '/api/auth/social/refresh', payload: { refreshToken: signedIn.body.refreshToken } };
    },
    status: 200,
    shape: { success: true, sessionToken: true, expiresIn: true, message: true, refreshToken: true },
  },
  {
    spec: 'Decentralized social identity: refresh 400',
    name: 'POST /api/auth/social/refresh, missing field',
    send: () => ({ method: 'POST', url: '/api/auth/social/refresh', payload: {} }),
    status: 400,
    shape: { ...ERROR, details: true },
  },
  {
    spec: 'Decentralized social identity: GET /api/auth/social/verify (metadata; docs/decisions)',
    name: 'GET /api/auth/social/verify',
    send: () => ({ method: 'GET', url: '/api/auth/social/verify' }),
    status: 200,
    shape: {
      endpoint: true, method: true, description: true, configured: true, issuer: true, audience: true, algorithms: true,
      request: { fidToken: true, address: true }, response: true, authentication: true, expiresIn: true,
    },
  },
  {
    spec: 'Decentralized social identity: GET /api/auth/social/refresh (metadata; docs/decisions)',
    name: 'GET /api/auth/social/refresh',
    send: () => ({ method: 'GET', url: '/api/auth/social/refresh' }),
    status: 200,
    shape: { endpoint: true, method: true, description: true, configured: true, request: { refreshToken: true }, response: true, expiresIn: true },
  },
  {
    spec: 'CONTRACT.md 4: GET /api/auth/verify-email (body not shown: {success, message})',
    name: 'GET /api/auth/verify-email',
    send: async () => {
      const u = await signUpAndIn(app);
      return { method: 'GET', url: `/api/auth/verify-email?token=${encodeURIComponent(await mailToken(u.email))}` };
    },
    status: 200,
    shape: { success: true, message: true },
  },
  {
    spec: 'Accounts and sign-in: POST /api/auth/forgot-password',
    name: 'POST /api/auth/forgot-password',
    send: () => ({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: uniqueEmail() } }),
    status: 200,
    shape: { message: true },
  },
  {
    spec: 'Accounts and sign-in: POST /api/auth/reset-password',
    name: 'POST /api/auth/reset-password',
    send: async () => {
      const u = await signUpAndIn(app);
      await call(app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email: u.email } });
      // the reset mail is in the outbox once the answer has come (written with its token)
      return { method: 'POST', url: '/api/auth/reset-password', payload: { token: await mailToken(u.email), password: 'a new password' } };
    },
    status: 200,
    shape: { message: true },
  },

  // Wallet sign-in (CONTRACT.md 4) and token gating
  { spec: 'CONTRACT.md 4: GET /api/auth/nonce', name: 'GET /api/auth/nonce', send: () => ({ method: 'GET', url: '/api/auth/nonce' }), status: 200, shape: { nonce: true } },
  {
    spec: 'Accounts and sign-in: POST /api/auth/callback/wallet (session cookie and redirect; body: docs/decisions)',
    name: 'POST /api/auth/callback/wallet',
    send: async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const { nonce } = (await call(app, { method: 'GET', url: '/api/auth/nonce' })).body;
      const message = createSiweMessage({ domain: '127.0.0.1:3000', address: account.address, uri: 'http://127.0.0.1:3000/', version: '1', chainId: 8453, nonce, issuedAt: new Date() });
      return { method: 'POST', url: '/api/auth/callback/wallet', payload: { message, signature: await account.signMessage({ message }) } };
    },
    status: 303,
    location: true,
    shape: { user: { id: true, email: true, name: true }, url: true },
  },
  {
    spec: 'Accounts and sign-in: POST /api/auth/callback/wallet, error 401',
    name: 'POST /api/auth/callback/wallet, unknown nonce',
    send: async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const message = createSiweMessage({ domain: '127.0.0.1:3000', address: account.address, uri: 'http://127.0.0.1:3000/', version: '1', chainId: 8453, nonce: 'neverissued0000', issuedAt: new Date() });
      return { method: 'POST', url: '/api/auth/callback/wallet', payload: { message, signature: await account.signMessage({ message }) } };
    },
    status: 401,
    shape: { ...ERROR, reason: true },
  },
  {
    spec: 'Decentralized social identity and token gating: POST /api/auth/token-gating/verify',
    name: 'POST /api/auth/token-gating/verify',
    send: () => ({ method: 'POST', url: '/api/auth/token-gating/verify', payload: { fid: '1', address: privateKeyToAccount(generatePrivateKey()).address } }),
    status: 200,
    shape: { fid: true, address: true, hasAccess: true, tokenGated: true, minBalance: true, token: true, chain: true, message: true, timestamp: true },
  },
  {
    spec: 'Decentralized social identity and token gating: GET /api/auth/token-gating/verify',
    name: 'GET /api/auth/token-gating/verify',
    send: () => ({ method: 'GET', url: `/api/auth/token-gating/verify?address=${privateKeyToAccount(generatePrivateKey()).address}` }),
    status: 200,
    shape: { address: true, hasAccess: true, tokenGated: true, minBalance: true, token: true, chain: true, contractAddress: true, rpcEndpoint: true },
  },

  // Profile and settings
  { spec: 'Resources: User profile + CONTRACT.md 7 "profile"', name: 'GET /api/settings', send: () => get(shared.user, '/api/settings'), status: 200, shape: PROFILE },
  { spec: 'Errors (401) + JWT middleware AUTH_REQUIRED', name: 'GET /api/settings, anonymous', send: () => ({ method: 'GET', url: '/api/settings' }), status: 401, shape: ERROR },
  { spec: 'Profile and settings: POST /api/settings (body not shown: the profile)', name: 'POST /api/settings', send: () => post(shared.user, '/api/settings', { name: 'Shaped' }), status: 200, shape: PROFILE },
  { spec: 'Profile and settings: PATCH /api/settings (body not shown: the profile)', name: 'PATCH /api/settings', send: () => ({ ...post(shared.user, '/api/settings', { notifications: { email: true } }), method: 'PATCH' }), status: 200, shape: PROFILE },
  {
    spec: 'Profile and settings: POST /api/settings/password',
    name: 'POST /api/settings/password',
    send: async () => {
      const u = await signUpAndIn(app);
      return post(u, '/api/settings/password', { currentPassword: u.password, newPassword: 'another long one' });
    },
    status: 200,
    shape: { success: true },
  },
  {
    spec: 'CONTRACT.md 7: DELETE /api/settings (body not shown: {success})',
    name: 'DELETE /api/settings',
    send: async () => ({ ...post(await signUpAndIn(app), '/api/settings', {}), method: 'DELETE', payload: undefined }),
    status: 200,
    shape: { success: true },
  },

  // API keys
  { spec: 'API keys: GET /api/keys + Resources: API key', name: 'GET /api/keys', send: () => get(shared.user, '/api/keys'), status: 200, shape: { keys: [KEY_LISTED] } },
  {
    spec: 'API keys: POST /api/keys ({id, name, key, createdAt}) + Resources: API key (keyPreview)',
    name: 'POST /api/keys',
    send: () => post(shared.user, '/api/keys', { name: 'another' }),
    status: 201,
    shape: { id: true, name: true, key: true, keyPreview: true, createdAt: true, ...KEY_LIMITS },
  },
  { spec: 'API keys: GET /api/keys/:id', name: 'GET /api/keys/:id', send: () => get(shared.user, `/api/keys/${shared.key.id}`), status: 200, shape: KEY_LISTED },
  {
    spec: 'CONTRACT.md "API keys people can hand out": PATCH /api/keys/:id',
    name: 'PATCH /api/keys/:id',
    send: () => ({ method: 'PATCH', url: `/api/keys/${shared.key.id}`, headers: shared.user.headers, payload: { dailyUnits: 500 } }),
    status: 200,
    shape: KEY_LISTED,
  },
  {
    spec: 'API keys: DELETE /api/keys/:id',
    name: 'DELETE /api/keys/:id',
    send: async () => {
      const k = (await call(app, post(shared.user, '/api/keys', { name: 'doomed' }))).body;
      return { method: 'DELETE', url: `/api/keys/${k.id}`, headers: shared.user.headers };
    },
    status: 200,
    shape: { success: true },
  },
  {
    spec: 'API keys: GET /api/keys/:id (404)',
    name: 'GET /api/keys/:id, unknown',
    send: () => get(shared.user, '/api/keys/0f0f0f0f-0000-4000-8000-000000000000'),
    status: 404,
    shape: ERROR,
  },

  // Billing and payments
  {
    spec: 'Billing and payments: GET /api/billing + CONTRACT.md 5 (subscriptions)',
    name: 'GET /api/billing',
    send: () => get(shared.user, '/api/billing'),
    status: 200,
    shape: { plans: { starter: PLAN, pro: PLAN, scale: PLAN }, currentPlan: true, subscriptionStatus: true, byokEnabled: true, usage: USAGE, subscriptions: [SUBSCRIPTION] },
  },
  {
    spec: 'docs/decisions/0283: GET /api/billing/usage (the console usage chart)',
    name: 'GET /api/billing/usage',
    send: () => get(shared.user, '/api/billing/usage?days=3'),
    status: 200,
    shape: { dailyUnits: true, unitsPerCredit: true, days: [{ day: true, usedUnits: true, creditUnits: true }] },
  },
  { spec: 'CONTRACT.md 5: GET /api/billing/subscriptions/:id', name: 'GET /api/billing/subscriptions/:id', send: () => get(shared.user, `/api/billing/subscriptions/${shared.sub}`), status: 200, shape: SUBSCRIPTION },
  { spec: 'Billing actions: create-checkout', name: 'POST /api/billing create-checkout', send: () => post(shared.user, '/api/billing', { action: 'create-checkout', plan: 'pro' }), status: 200, shape: { url: true } },
  {
    spec: 'Billing actions: enable-byok',
    name: 'POST /api/billing enable-byok',
    send: () => post(shared.user, '/api/billing', { action: 'enable-byok', provider: 'openai', apiKey: 'sk-user-key-0123456789abcdef' }),
    status: 200,
    shape: { success: true, message: true },
  },
  { spec: 'Billing actions: disable-byok', name: 'POST /api/billing disable-byok', send: () => post(shared.user, '/api/billing', { action: 'disable-byok' }), status: 200, shape: { success: true, message: true } },
  { spec: 'Billing actions: get-usage', name: 'POST /api/billing get-usage', send: () => post(shared.user, '/api/billing', { action: 'get-usage' }), status: 200, shape: USAGE },
  {
    spec: 'Billing actions: buy-credits + CONTRACT.md 6 (url)',
    name: 'POST /api/billing buy-credits',
    send: () => post(shared.user, '/api/billing', { action: 'buy-credits', pack: '50' }),
    status: 200,
    shape: { success: true, credits: true, price: true, url: true },
  },
  { spec: 'docs/decisions, billing: unknown action', name: 'POST /api/billing, unknown action', send: () => post(shared.user, '/api/billing', { action: 'nope' }), status: 400, shape: { ...ERROR, allowed: true } },
  { spec: 'CONTRACT.md 7: GET /api/credits', name: 'GET /api/credits', send: () => get(shared.user, '/api/credits'), status: 200, shape: { credits: true, packs: [{ pack: true, credits: true, price: true }] } },
  { spec: 'Billing and payments: POST /api/psp/storage-upgrade', name: 'POST /api/psp/storage-upgrade', send: () => post(shared.user, '/api/psp/storage-upgrade', {}), status: 200, shape: { url: true } },
  { spec: 'Billing and payments: GET /api/psp/checkout (redirect)', name: 'GET /api/psp/checkout', send: async () => get(await signUpAndIn(app), '/api/psp/checkout?plan=solo'), status: 302, location: true },
  {
    spec: 'CONTRACT.md 7 changing a plan: a checkout in a catalog already held (docs/decisions/0281)',
    name: 'GET /api/psp/checkout, already subscribed',
    send: () => get(shared.user, '/api/psp/checkout?plan=solo'),
    status: 409,
    shape: { ...ERROR, catalog: true, plan: true, use: true },
  },
  { spec: 'Billing and payments: GET /api/psp/credits (redirect)', name: 'GET /api/psp/credits', send: () => get(shared.user, '/api/psp/credits?price=price_dev_credits_50'), status: 302, location: true },
  {
    spec: 'docs/decisions/0436: the gateway\'s prices in x402\'s discovery shape (no items without MPP)',
    name: 'GET /api/v1/gateway/discovery/resources',
    send: () => ({ method: 'GET', url: '/api/v1/gateway/discovery/resources' }),
    status: 200,
    shape: { x402Version: true, items: true, pagination: { limit: true, offset: true, total: true } },
  },
  { spec: 'Gateway: psp.checkoutUrl, docs/decisions (JSON without Accept text/html)', name: 'GET /api/v1/payments/psp/create', send: () => get(shared.user, '/api/v1/payments/psp/create?plugin=tts'), status: 200, shape: { url: true } },
  {
    spec: 'Gateway: psp.checkoutUrl, docs/decisions (a browser is redirected)',
    name: 'GET /api/v1/payments/psp/create (browser)',
    send: () => ({ method: 'GET', url: '/api/v1/payments/psp/create?plugin=agent', headers: { cookie: shared.user.cookie, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } }),
    status: 303,
    location: true,
  },
  {
    spec: 'docs/decisions, billing: the development processor\'s completion page (redirect)',
    name: 'GET /api/psp/dev/complete',
    send: async () => {
      const { url } = (await call(app, post(shared.user, '/api/billing', { action: 'buy-credits', pack: '50' }))).body;
      return { method: 'GET', url: pathOf(url) };
    },
    status: 302,
    location: true,
  },
  { spec: 'Billing and payments: POST /api/checkout (410) + CONTRACT.md 7 "deprecated endpoints"', name: 'POST /api/checkout', send: () => ({ method: 'POST', url: '/api/checkout' }), status: 410, shape: { ...ERROR, use: true } },
  {
    spec: 'Events: inbound webhook "a plain OK"',
    name: 'POST /api/webhooks/psp',
    send: () => {
      const signed = signedStripeEvent(SECRET, checkoutCompletedEvent(checkoutSession({ client_reference_id: shared.user.id })));
      return { method: 'POST', url: '/api/webhooks/psp', headers: { 'content-type': 'application/json', 'psp-signature': signed.header }, payload: signed.body };
    },
    status: 200,
    shape: 'OK',
  },
  {
    spec: 'docs/decisions, billing: GET /api/admin/payments/unmatched (kept paid events that matched no user)',
    name: 'GET /api/admin/payments/unmatched',
    send: async () => {
      const stranger = checkoutCompletedEvent(checkoutSession({ client_reference_id: null, customer_details: { email: uniqueEmail('stranger') } }));
      const signed = signedStripeEvent(SECRET, stranger);
      await app.inject({ method: 'POST', url: '/api/webhooks/psp', headers: { 'content-type': 'application/json', 'psp-signature': signed.header }, payload: signed.body });
      return get(await webhookAdmin(), '/api/admin/payments/unmatched');
    },
    status: 200,
    shape: {
      events: [
        {
          ...{ id: true, type: true, email: true, customerId: true, subscriptionId: true, plan: true, catalog: true, pack: true, createdAt: true, receivedAt: true },
          ...{ attachedAt: true, attachedUserId: true, attachedVia: true, attachedByEventId: true, attachedOutcome: true },
        },
      ],
    },
  },

  // AI layer
  {
    spec: 'AI layer: GET /api/ai/health',
    name: 'GET /api/ai/health',
    send: () => ({ method: 'GET', url: '/api/ai/health' }),
    status: 200,
    shape: { status: true, providers: Object.fromEntries(AI_PROVIDER_NAMES.map((p) => [p, true])), timestamp: true },
  },
  {
    spec: 'CONTRACT.md "OpenAI-compatible API": GET /v1/models (OpenAI\'s list)',
    name: 'GET /v1/models',
    send: () => ({ method: 'GET', url: '/v1/models', headers: bearer(shared.key.key) }),
    status: 200,
    shape: { object: true, data: [{ id: true, object: true, created: true, owned_by: true }] },
  },
  {
    spec: 'CONTRACT.md "OpenAI-compatible API": POST /v1/chat/completions, a bad request in OpenAI\'s error shape',
    name: 'POST /v1/chat/completions',
    send: () => ({ method: 'POST', url: '/v1/chat/completions', headers: bearer(shared.key.key), payload: { model: 'openai/gpt-4o-mini', messages: [] } }),
    status: 400,
    shape: { error: { message: true, type: true, param: true, code: true } },
  },
  {
    spec: 'AI layer: GET /api/ai/models + Resources: AI model',
    name: 'GET /api/ai/models',
    send: () => ({ method: 'GET', url: '/api/ai/models' }),
    status: 200,
    shape: { models: [MODEL], count: true, ...Object.fromEntries(AI_PROVIDER_NAMES.map((p) => [p, true])), timestamp: true },
  },
  {
    spec: 'AI layer: GET /api/ai/models/:provider',
    name: 'GET /api/ai/models/:provider',
    send: () => ({ method: 'GET', url: '/api/ai/models/openai' }),
    status: 200,
    shape: { provider: true, models: [MODEL], count: true, timestamp: true },
  },
  {
    spec: 'AI layer: POST /api/ai/models/select',
    name: 'POST /api/ai/models/select',
    send: () => ({ method: 'POST', url: '/api/ai/models/select', payload: { taskType: 'general' } }),
    status: 200,
    shape: { model: { id: true, provider: true }, taskType: true, timestamp: true },
  },
  {
    spec: 'AI layer: POST /api/ai/estimate-cost',
    name: 'POST /api/ai/estimate-cost',
    send: () => ({ method: 'POST', url: '/api/ai/estimate-cost', payload: { model: 'openai/gpt-4o-mini', inputTokens: 1000, outputTokens: 500 } }),
    status: 200,
    shape: { model: true, inputTokens: true, outputTokens: true, estimatedCost: true, currency: true, timestamp: true },
  },
  {
    spec: 'AI layer: chat response',
    name: 'POST /api/ai/chat',
    send: () => ({ ...post(shared.user, '/api/ai/chat', { messages: hi }), headers: { ...shared.user.headers, 'x-user-plan': 'label', 'x-payment-subscription-id': shared.sub } }),
    status: 200,
    shape: { id: true, model: true, provider: true, message: { role: true, content: true }, usage: { promptTokens: true, completionTokens: true, totalTokens: true }, timestamp: true },
  },
  {
    spec: 'AI layer: chat errors (402 PLAN_REQUIRED: success false and error text)',
    name: 'POST /api/ai/chat, no plan',
    send: () => ({ ...post(shared.user, '/api/ai/chat', { messages: hi }), headers: { ...shared.user.headers, 'x-payment-subscription-id': shared.sub } }),
    status: 402,
    shape: { ...ERROR, success: true },
  },
  {
    spec: 'AI layer: chat errors (403 MODEL_RESTRICTED with allowedModels)',
    name: 'POST /api/ai/chat, model above the plan',
    send: () => ({
      ...post(shared.user, '/api/ai/chat', { messages: hi, model: 'anthropic/claude-sonnet-4-20250514' }),
      headers: { ...shared.user.headers, 'x-user-plan': 'label', 'x-payment-subscription-id': shared.sub },
    }),
    status: 403,
    // plus the model asked for and the plan level judged (ours, as details)
    shape: { ...ERROR, allowedModels: true, model: true, plan: true },
  },

  // Agents
  { spec: 'Agents: GET /api/agents + Resources: Agent', name: 'GET /api/agents', send: () => get(agentOwner.user, '/api/agents'), status: 200, shape: { agents: [AGENT], count: true, status: true } },
  { spec: 'Agents: GET /api/agents (no session: empty list, not 401)', name: 'GET /api/agents, anonymous', send: () => ({ method: 'GET', url: '/api/agents' }), status: 200, shape: { agents: true, count: true, status: true } },
  {
    spec: 'Agents: POST /api/provision ("proxy returns only these")',
    name: 'POST /api/provision',
    send: async () => {
      const s = await subscriber();
      return post(s.user, '/api/provision', { channelTokenA: 'bot-token', plan: 'label', paymentSubscriptionId: s.sub });
    },
    status: 200,
    shape: { success: true, userId: true, subdomain: true, url: true, streamKey: true, liveStreamId: true },
  },
  {
    spec: 'Agents: POST /api/provision, free or omitted plan (402 PAYMENT_REQUIRED)',
    name: 'POST /api/provision, free plan',
    send: () => ({ method: 'POST', url: '/api/provision', payload: { channelTokenA: 'bot-token', plan: 'free' } }),
    status: 402,
    shape: ERROR,
  },
  {
    spec: 'Agents: POST /api/agents/provision',
    name: 'POST /api/agents/provision',
    send: async () => post((await subscriber()).user, '/api/agents/provision', { name: 'Provisioned' }),
    status: 201,
    shape: { success: true, agent: { id: true, name: true, status: true, websocketUrl: true, model: true, createdAt: true } },
  },
  {
    spec: 'Agents: 429 limit reached (body includes current and limit)',
    name: 'POST /api/agents/provision, over the limit',
    send: () => post(agentOwner.user, '/api/agents/provision', { name: 'Second' }),
    status: 429,
    shape: { ...ERROR, current: true, limit: true },
  },
  { spec: 'Agents: 402 no active subscription', name: 'POST /api/agents/provision, unsubscribed', send: async () => post(await signUpAndIn(app), '/api/agents/provision', { name: 'x' }), status: 402, shape: ERROR },
  { spec: 'Agents: GET /api/agents/provision', name: 'GET /api/agents/provision', send: () => get(agentOwner.user, '/api/agents/provision'), status: 200, shape: { success: true, agents: [AGENT], count: true } },
  {
    spec: 'not in the spec (issue 13, the web console): what provisioning allows',
    name: 'GET /api/agents/allowance',
    send: () => get(agentOwner.user, '/api/agents/allowance'),
    status: 200,
    shape: { agents: { current: true, limit: true }, models: true, defaultModel: true },
  },
  {
    spec: 'Agents: GET /api/agents/:id + Resources: Agent detail (envelope status: ok)',
    name: 'GET /api/agents/:id',
    send: () => get(agentOwner.user, `/api/agents/${sharedAgent.id}`),
    status: 200,
    shape: {
      agent: { id: true, status: true, startedAt: true, plan: true, subdomain: true, url: true, runtimeVersion: true, verified: true, verificationType: true, attestationUid: true, verifiedAt: true },
      status: true,
    },
  },
  { spec: 'Agents: GET /api/agents/:id (404 not owned)', name: 'GET /api/agents/:id, another user\'s', send: () => get(shared.user, `/api/agents/${sharedAgent.id}`), status: 404, shape: ERROR },
  {
    spec: 'Agents: POST /api/agents/:id/verify (eas accepted on format: no EAS_RPC_URL, CONTRACT.md 7)',
    name: 'POST /api/agents/:id/verify',
    send: () => post(agentOwner.user, `/api/agents/${sharedAgent.id}/verify`, { verificationType: 'eas', attestationUid: `0x${'ab'.repeat(32)}` }),
    status: 200,
    shape: { success: true, verified: true, verificationType: true, attestationUid: true, verifiedAt: true },
  },
  {
    spec: 'Agents: GET /api/agents/:id/verify + Resources: Verification record',
    name: 'GET /api/agents/:id/verify',
    send: () => get(agentOwner.user, `/api/agents/${sharedAgent.id}/verify`),
    status: 200,
    shape: { verified: true, verificationType: true, attestationUid: true, verifierAddress: true, verifiedAt: true, metadata: true },
  },
  {
    spec: 'CONTRACT.md 7 sign-in methods: GET /api/auth/providers (+ emailDelivery, docs/decisions/0282)',
    name: 'GET /api/auth/providers',
    send: () => ({ method: 'GET', url: '/api/auth/providers' }),
    status: 200,
    shape: { password: true, codehost: true, idp: true, wallet: true, social: true, emailDelivery: true },
  },
  {
    spec: 'docs/decisions/0281: the development billing portal (a bad session)',
    name: 'GET /api/psp/dev/portal',
    send: async () => ({ method: 'GET', url: '/api/psp/dev/portal?session=not.signed', headers: (await signUpAndIn(app)).headers }),
    status: 400,
    shape: ERROR,
  },
  {
    spec: 'docs/decisions/0281: the development billing portal change (a bad session)',
    name: 'POST /api/psp/dev/portal',
    send: async () => ({ method: 'POST', url: '/api/psp/dev/portal', headers: (await signUpAndIn(app)).headers, payload: { session: 'not.signed', subscriptionId: 'sub_x', action: 'cancel' } }),
    status: 400,
    shape: ERROR,
  },
  {
    spec: 'CONTRACT.md 7 removing an agent: POST /api/agents/:id/remove (+ runtimeStopped, docs/decisions/0280)',
    name: 'POST /api/agents/:id/remove',
    send: async () => {
      const { user } = await subscriber();
      const made = await call(app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: 'Removed' } });
      return { method: 'POST', url: `/api/agents/${made.body.agent.id}/remove`, headers: user.headers };
    },
    status: 200,
    shape: { success: true, runtimeStopped: true },
  },
  {
    spec: 'Agents: DELETE /api/agents/:id/verify',
    name: 'DELETE /api/agents/:id/verify',
    send: () => ({ method: 'DELETE', url: `/api/agents/${sharedAgent.id}/verify`, headers: agentOwner.user.headers }),
    status: 200,
    shape: { success: true },
  },
  {
    spec: 'Agents: POST /api/agents/:id/verify (400)',
    name: 'POST /api/agents/:id/verify, signature missing',
    send: () => post(agentOwner.user, `/api/agents/${sharedAgent.id}/verify`, { verificationType: 'walletprovider' }),
    status: 400,
    shape: { ...ERROR, details: true },
  },
  { spec: 'Agents: GET /api/agents/:id/config', name: 'GET /api/agents/:id/config', send: () => get(agentOwner.user, `/api/agents/${sharedAgent.id}/config`), status: 200, shape: { config: { systemPrompt: true } } },
  {
    spec: 'Agents: PUT /api/agents/:id/config (response not shown: {success, config}) + CONTRACT.md 7 "agent config"',
    name: 'PUT /api/agents/:id/config',
    send: () => ({ ...post(agentOwner.user, `/api/agents/${sharedAgent.id}/config`, { systemPrompt: 'hi again' }), method: 'PUT' }),
    status: 200,
    shape: { success: true, config: { systemPrompt: true } },
  },
  {
    spec: 'Agents: GET /api/agents/:id/messages + CONTRACT.md 7 "agent message"',
    name: 'GET /api/agents/:id/messages',
    send: () => get(agentOwner.user, `/api/agents/${sharedAgent.id}/messages`),
    status: 200,
    shape: { messages: [{ id: true, agentId: true, role: true, content: true, channel: true, createdAt: true }], total: true, limit: true, offset: true, status: true },
  },
  // Talking to an agent (CONTRACT.md 7); the answered 200 `{message, reply}` is held in test/integration/agents/agent-chat.test.ts
  {
    spec: 'CONTRACT.md 7 "talking to an agent": 202 {message, pending: true}',
    name: 'POST /api/chat, no answer in time',
    send: () => post(shared.user, '/api/chat', { agentId: runningAgent.id, content: 'are you there?' }),
    status: 202,
    shape: { message: AGENT_MESSAGE, pending: true },
  },
  {
    spec: 'CONTRACT.md 7 "talking to an agent": 409 AGENT_NOT_RUNNING',
    name: 'POST /api/chat, agent not running',
    send: () => post(agentOwner.user, '/api/chat', { agentId: sharedAgent.id, content: 'hi' }),
    status: 409,
    shape: ERROR,
  },
  {
    spec: 'CONTRACT.md 7 "talking to an agent": GET /api/chat, the messages shape',
    name: 'GET /api/chat',
    send: () => get(agentOwner.user, `/api/chat?agentId=${sharedAgent.id}`),
    status: 200,
    shape: { messages: [AGENT_MESSAGE], total: true, limit: true, offset: true, status: true },
  },
  {
    spec: 'agent-host-protocol.ts: POST /api/runtime/chat errors are {error, code}',
    name: 'POST /api/runtime/chat, without a gateway token',
    send: () => ({ method: 'POST', url: '/api/runtime/chat', payload: {} }),
    status: 401,
    shape: ERROR,
  },
  {
    spec: 'agent-host-protocol.ts: POST /api/runtime/tools errors are {error, code}',
    name: 'POST /api/runtime/tools, without a gateway token',
    send: () => ({ method: 'POST', url: '/api/runtime/tools', payload: {} }),
    status: 401,
    shape: ERROR,
  },
  // /api/agent (spec "Agent interaction and chat"; CONTRACT.md 7 "/api/agent actions"; shapes decided in docs/decisions)
  {
    spec: 'Agent interaction: GET /api/agent with no action: endpoints and version information',
    name: 'GET /api/agent',
    send: () => get(agentOwner.user, '/api/agent'),
    status: 200,
    shape: { version: true, runtimeVersion: true, endpoints: { get: [{ action: true, params: true }], post: [{ action: true, params: true }] } },
  },
  { spec: 'Agent interaction: GET /api/agent health', name: 'GET /api/agent health', send: () => get(agentOwner.user, '/api/agent?action=health'), status: 200, shape: { status: true, version: true, runtimeVersion: true, timestamp: true } },
  {
    spec: 'Agent interaction: GET /api/agent sessions',
    name: 'GET /api/agent sessions',
    send: () => get(agentOwner.user, '/api/agent?action=sessions'),
    status: 200,
    shape: { sessions: [AGENT_SESSION] },
  },
  {
    spec: 'Agent interaction: GET /api/agent session (full session with messages)',
    name: 'GET /api/agent session',
    send: () => get(agentOwner.user, `/api/agent?action=session&sessionId=${sharedSession}`),
    status: 200,
    shape: { session: { ...AGENT_SESSION, messages: [SESSION_MESSAGE] } },
  },
  {
    spec: 'Agent interaction: GET /api/agent memory (last 10 messages of the active session)',
    name: 'GET /api/agent memory',
    send: () => get(agentOwner.user, `/api/agent?action=memory&agentId=${sharedAgent.id}`),
    status: 200,
    shape: { agentId: true, sessionId: true, messages: [SESSION_MESSAGE] },
  },
  {
    spec: 'Agent interaction: GET /api/agent skills (CONTRACT.md 7 "installed skill" + enabled, docs/decisions, skills)',
    name: 'GET /api/agent skills',
    send: async () => {
      await installSharedSkill();
      return get(agentOwner.user, '/api/agent?action=skills');
    },
    status: 200,
    shape: { skills: [INSTALLED_SKILL] },
  },
  {
    spec: 'Agent interaction: GET /api/agent credentials (names only)',
    name: 'GET /api/agent credentials',
    send: async () => {
      await call(app, post(agentOwner.user, '/api/agent', { action: 'set_credential', agentId: sharedAgent.id, name: 'SHAPES', value: 'v' }));
      return get(agentOwner.user, '/api/agent?action=credentials');
    },
    status: 200,
    shape: { credentials: [{ agentId: true, name: true, createdAt: true, updatedAt: true }] },
  },
  { spec: 'docs/decisions, agents: GET /api/agent, unknown action', name: 'GET /api/agent, unknown action', send: () => get(agentOwner.user, '/api/agent?action=nope'), status: 400, shape: { ...ERROR, allowed: true } },
  {
    spec: 'Agent interaction: POST /api/agent chat, no answer in time (CONTRACT.md 7 "talking to an agent" + sessionId)',
    name: 'POST /api/agent chat',
    send: () => post(shared.user, '/api/agent', { action: 'chat', agentId: runningAgent.id, content: 'are you there?' }),
    status: 202,
    shape: { message: SESSION_MESSAGE, pending: true },
  },
  {
    spec: 'Agent interaction: POST /api/agent create_session',
    name: 'POST /api/agent create_session',
    send: () => post(agentOwner.user, '/api/agent', { action: 'create_session', agentId: sharedAgent.id }),
    status: 201,
    shape: { session: AGENT_SESSION },
  },
  {
    spec: 'Agent interaction: POST /api/agent update_skill (docs/decisions, skills: {success, skill})',
    name: 'POST /api/agent update_skill',
    send: async () => {
      await installSharedSkill();
      return post(agentOwner.user, '/api/agent', { action: 'update_skill', agentId: sharedAgent.id, skillId: 'email', enabled: true });
    },
    status: 200,
    shape: { success: true, skill: INSTALLED_SKILL },
  },
  {
    spec: 'Agent interaction: POST /api/agent update_skill, a skill not installed: 404',
    name: 'POST /api/agent update_skill, not installed',
    send: () => post(agentOwner.user, '/api/agent', { action: 'update_skill', agentId: sharedAgent.id, skillId: 'web-search', enabled: true }),
    status: 404,
    shape: ERROR,
  },
  // Skills
  {
    spec: 'Skills: GET /api/skills + Resources: Skill (plus manifest, docs/decisions/0083-skill-manifests.md; featured: the featured skills)',
    name: 'GET /api/skills',
    send: () => ({ method: 'GET', url: '/api/skills' }),
    status: 200,
    shape: { skills: [SKILL], categories: true, featured: [SKILL] },
  },
  { spec: 'Skills: GET /api/skills, unknown category', name: 'GET /api/skills, unknown category', send: () => ({ method: 'GET', url: '/api/skills?category=nope' }), status: 400, shape: { ...ERROR, details: true } },
  { spec: 'Skills: POST /api/skills', name: 'POST /api/skills', send: () => post(agentOwner.user, '/api/skills', { skillId: 'browser', agentId: sharedAgent.id }), status: 200, shape: { success: true } },
  {
    spec: 'Skills: POST /api/skills, over the plan limit (CONTRACT.md 7 "installed skill": current, limit)',
    name: 'POST /api/skills, over the limit',
    send: async () => {
      const { user } = await subscriber();
      const agent = (await call(app, post(user, '/api/agents/provision', { name: 'Full' }))).body.agent;
      for (const skillId of ['email', 'browser', 'venue-finder']) await call(app, post(user, '/api/skills', { skillId, agentId: agent.id }));
      return post(user, '/api/skills', { skillId: 'festival-finder', agentId: agent.id });
    },
    status: 429,
    shape: { ...ERROR, current: true, limit: true },
  },
  {
    spec: 'Skills: POST /api/skills/<skill-slug>, no vendor configured (docs/decisions, skills: 501 NOT_CONFIGURED)',
    name: 'POST /api/skills/:slug',
    send: () => post(shared.user, '/api/skills/venue-finder', { action: 'search', city: 'Berlin' }),
    status: 501,
    shape: ERROR,
  },
  {
    spec: 'Skills: POST /api/skills/<skill-slug>, unknown action (400 with details)',
    name: 'POST /api/skills/:slug, unknown action',
    send: () => post(shared.user, '/api/skills/venue-finder', { action: 'nope' }),
    status: 400,
    shape: { ...ERROR, details: true, allowed: true },
  },
  {
    spec: 'Agent interaction: POST /api/agent set_credential (never returned)',
    name: 'POST /api/agent set_credential',
    send: () => post(agentOwner.user, '/api/agent', { action: 'set_credential', agentId: sharedAgent.id, name: 'SHAPES_2', value: 'v' }),
    status: 200,
    shape: { success: true, credential: { agentId: true, name: true, createdAt: true, updatedAt: true } },
  },
  { spec: 'docs/decisions, agents: POST /api/agent, unknown action', name: 'POST /api/agent, unknown action', send: () => post(agentOwner.user, '/api/agent', { action: 'nope' }), status: 400, shape: { ...ERROR, allowed: true } },
  { spec: 'Versioning: POST /api/agents deprecated (CONTRACT.md 7: 410)', name: 'POST /api/agents', send: () => ({ method: 'POST', url: '/api/agents', payload: {} }), status: 410, shape: DEPRECATED },
  { spec: 'Versioning: PUT /api/agents/:id deprecated', name: 'PUT /api/agents/:id', send: () => ({ method: 'PUT', url: `/api/agents/${sharedAgent.id}`, payload: {} }), status: 410, shape: DEPRECATED },
  { spec: 'Versioning: DELETE /api/agents/:id deprecated', name: 'DELETE /api/agents/:id', send: () => ({ method: 'DELETE', url: `/api/agents/${sharedAgent.id}` }), status: 410, shape: DEPRECATED },
  {
    spec: 'docs/decisions/0283: GET /api/agents/:id/activity (the console activity timeline and chart)',
    name: 'GET /api/agents/:id/activity',
    send: () => get(agentOwner.user, `/api/agents/${sharedAgent.id}/activity?hours=2`),
    status: 200,
    shape: { from: true, to: true, events: true, messagesPerHour: [{ hour: true, answered: true, failed: true }] },
  },
  {
    spec: 'CONTRACT.md "scheduled runs": POST /api/agents/:id/schedules (beyond the spec)',
    name: 'POST /api/agents/:id/schedules',
    send: () => post(agentOwner.user, `/api/agents/${sharedAgent.id}/schedules`, { cron: '0 9 * * 1-5', timezone: 'Europe/Berlin', content: 'Weekday digest' }),
    status: 201,
    shape: { schedule: SCHEDULE },
  },
  {
    spec: 'CONTRACT.md "scheduled runs": GET /api/agents/:id/schedules → {schedules: [{id, cron, timezone, content, nextRunAt}]}',
    name: 'GET /api/agents/:id/schedules',
    send: async () => {
      await call(app, post(agentOwner.user, `/api/agents/${sharedAgent.id}/schedules`, { cron: '@hourly', content: 'Listed' }));
      return get(agentOwner.user, `/api/agents/${sharedAgent.id}/schedules`);
    },
    status: 200,
    shape: { schedules: [SCHEDULE] },
  },
  {
    spec: 'CONTRACT.md "scheduled runs": DELETE /api/agents/:id/schedules/:scheduleId',
    name: 'DELETE /api/agents/:id/schedules/:scheduleId',
    send: async () => {
      const s = (await call(app, post(agentOwner.user, `/api/agents/${sharedAgent.id}/schedules`, { cron: '@daily', content: 'Doomed' }))).body.schedule;
      return { method: 'DELETE', url: `/api/agents/${sharedAgent.id}/schedules/${s.id}`, headers: agentOwner.user.headers };
    },
    status: 200,
    shape: { success: true },
  },
  {
    spec: 'docs/decisions/0447: GET /api/agents/:id/schedules/:scheduleId/runs (beyond the spec: the ticks run, sent or skipped)',
    name: 'GET /api/agents/:id/schedules/:scheduleId/runs',
    send: async () => {
      const s = (await call(app, post(agentOwner.user, `/api/agents/${sharedAgent.id}/schedules`, { cron: '@weekly', content: 'Runs' }))).body.schedule;
      return get(agentOwner.user, `/api/agents/${sharedAgent.id}/schedules/${s.id}/runs`);
    },
    status: 200,
    shape: { runs: true },
  },
  {
    spec: 'Agents: GET /api/agents/:id/stats + Resources: Agent stats, mock variant (no instance yet: the runtime does not answer)',
    name: 'GET /api/agents/:id/stats',
    send: () => get(agentOwner.user, `/api/agents/${sharedAgent.id}/stats`),
    status: 200,
    shape: { stats: { agentId: true, messagesProcessed: true, messagesPerHour: true, averageResponseTime: true, uptime: true, successRate: true, errorRate: true, timestamp: true }, status: true },
  },
  // Agent lifecycle and instance: another user's instance is 403 with the "Lifecycle failure body"
  // (success shapes, which need a running worker: test/http/instances.test.ts)
  ...['start', 'stop', 'restart', 'update', 'repair', 'reset-memory'].map(
    (action): Row => ({
      spec: `Agent lifecycle and instance: POST /api/instance/:userId/${action}, 403 + Lifecycle failure body`,
      name: `POST /api/instance/:userId/${action}, another user's`,
      send: () => post(shared.user, `/api/instance/${agentOwner.user.id}/${action}`, {}),
      status: 403,
      shape: LIFECYCLE_FAILURE,
    }),
  ),
  ...['', '/stats', '/token'].map(
    (path): Row => ({
      spec: `Agent lifecycle and instance: GET /api/instance/:userId${path}, 403 + Lifecycle failure body`,
      name: `GET /api/instance/:userId${path}, another user's`,
      send: () => get(shared.user, `/api/instance/${agentOwner.user.id}${path}`),
      status: 403,
      shape: LIFECYCLE_FAILURE,
    }),
  ),
  // Memory (spec "Memory (S, owner of agent)"; `saved` is the write's time: docs/decisions)
  {
    spec: 'Memory: POST /api/memory (single)',
    name: 'POST /api/memory',
    send: () => post(agentOwner.user, '/api/memory', { agentId: sharedAgent.id, key: 'k', memory: { any: 'value' } }),
    status: 200,
    shape: { success: true, agentId: true, key: true, saved: true },
  },
  {
    spec: 'Memory: POST /api/memory (bulk)',
    name: 'POST /api/memory, bulk',
    send: () => post(agentOwner.user, '/api/memory', { agentId: sharedAgent.id, memory: { a: 1, b: 2 } }),
    status: 200,
    shape: { success: true, agentId: true, keysUpdated: true, saved: true },
  },
  {
    spec: 'Memory: POST /api/memory, value over 100 KB (400)',
    name: 'POST /api/memory, too large',
    send: () => post(agentOwner.user, '/api/memory', { agentId: sharedAgent.id, key: 'k', memory: 'x'.repeat(102_400) }),
    status: 400,
    shape: { ...ERROR, key: true, bytes: true, limit: true },
  },
  { spec: 'Memory: GET /api/memory + Resources: Agent memory', name: 'GET /api/memory', send: () => get(agentOwner.user, `/api/memory?agentId=${sharedAgent.id}`), status: 200, shape: { memory: true, agentId: true, count: true, lastUpdated: true } },
  { spec: 'Memory: GET /api/memory (404)', name: 'GET /api/memory, another user\'s agent', send: () => get(shared.user, `/api/memory?agentId=${sharedAgent.id}`), status: 404, shape: ERROR },

  // Heartbeat (spec "Health and heartbeat" + Resources: Heartbeat settings)
  {
    spec: 'Health and heartbeat: GET /api/heartbeat',
    name: 'GET /api/heartbeat',
    send: () => get(shared.user, '/api/heartbeat'),
    status: 200,
    shape: { heartbeat: { frequency: true, enabled: true, lastHeartbeat: true, nextHeartbeat: true }, message: true },
  },
  {
    spec: 'Health and heartbeat: POST /api/heartbeat',
    name: 'POST /api/heartbeat',
    send: () => post(shared.user, '/api/heartbeat', { frequency: '3h', enabled: true }),
    status: 200,
    shape: { frequency: true, enabled: true, lastUpdated: true, lastHeartbeat: true, nextHeartbeat: true, message: true },
  },
  { spec: 'Health and heartbeat: POST /api/heartbeat, invalid frequency (400)', name: 'POST /api/heartbeat, invalid', send: () => post(shared.user, '/api/heartbeat', { frequency: '3x' }), status: 400, shape: { ...ERROR, min: true, max: true, details: true } },
  { spec: 'Health and heartbeat: DELETE /api/heartbeat', name: 'DELETE /api/heartbeat', send: () => ({ method: 'DELETE', url: '/api/heartbeat', headers: shared.user.headers }), status: 200, shape: { success: true, message: true } },
  // Gateway (spec "Gateway"; the MPP 402 body with `mpp` is held in test/http/gateway-mpp.test.ts, against a local chain)
  {
    spec: 'Gateway: success 200 {plugin, message, timestamp, payment: {method, receipt}}',
    name: 'POST /api/v1/gateway',
    send: () => ({ method: 'POST', url: '/api/v1/gateway', headers: bearer(shared.key.key), payload: { prompt: 'hi' } }),
    status: 200,
    shape: { plugin: true, message: true, timestamp: true, payment: { method: true, receipt: true } },
  },
  { spec: 'Gateway: errors 401 Unauthorized', name: 'POST /api/v1/gateway, no credentials', send: () => ({ method: 'POST', url: '/api/v1/gateway', payload: { prompt: 'hi' } }), status: 401, shape: { error: true } },
  {
    spec: 'Gateway: 402 payment_required {error, message, psp} (docs/decisions: without MPP configured, no `mpp`)',
    name: 'POST /api/v1/gateway, no subscription',
    send: async () => {
      const u = await signUpAndIn(app);
      const key = (await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'gw' } })).body.key;
      return { method: 'POST', url: '/api/v1/gateway', headers: bearer(key), payload: { prompt: 'hi' } };
    },
    status: 402,
    shape: { error: true, message: true, psp: { checkoutUrl: true, amount: true, currency: true } },
  },
  { spec: 'Gateway: errors 502 no_plugin', name: 'POST /api/v1/gateway, unknown plugin', send: () => ({ method: 'POST', url: '/api/v1/gateway', headers: { 'x-plugin-id': 'nope' }, payload: {} }), status: 502, shape: { error: true, message: true } },
  { spec: 'Gateway: OPTIONS for CORS', name: 'OPTIONS /api/v1/gateway', send: () => ({ method: 'OPTIONS', url: '/api/v1/gateway' }), status: 204 },

  // Wallets (spec "Wallets" + Resources: Wallet (user wallet)); no hosted provider and no chain configured here
  { spec: 'Wallets: GET /api/wallet, no wallet', name: 'GET /api/wallet, none', send: () => get(walleter, '/api/wallet'), status: 200, shape: { address: true, balance: true, network: true, hasWallet: true, createdAt: true, message: true } },
  { spec: 'Wallets: POST /api/wallet create', name: 'POST /api/wallet, create', send: () => post(walleter, '/api/wallet', { action: 'create' }), status: 200, shape: { address: true, network: true, message: true } },
  { spec: 'Wallets: POST /api/wallet create twice (400)', name: 'POST /api/wallet, create twice', send: () => post(walleter, '/api/wallet', { action: 'create' }), status: 400, shape: ERROR },
  {
    spec: 'Wallets: GET /api/wallet, a wallet (docs/decisions: token, nativeBalance; balanceError when the node cannot be read)',
    name: 'GET /api/wallet, a wallet',
    send: () => get(walleter, '/api/wallet'),
    status: 200,
    shape: { address: true, balance: true, network: true, hasWallet: true, createdAt: true, token: { symbol: true, address: true, decimals: true }, nativeBalance: true, balanceError: true },
  },
  { spec: 'Wallets: POST /api/wallet get_seed', name: 'POST /api/wallet, get_seed', send: () => post(walleter, '/api/wallet', { action: 'get_seed' }), status: 200, shape: { address: true, network: true, createdAt: true, warning: true } },
  { spec: 'Wallets: POST /api/wallet export_seed (403)', name: 'POST /api/wallet, export_seed', send: () => post(walleter, '/api/wallet', { action: 'export_seed' }), status: 403, shape: ERROR },
  { spec: 'Wallets: POST /api/wallet invalid action (400)', name: 'POST /api/wallet, invalid action', send: () => post(walleter, '/api/wallet', { action: 'burn' }), status: 400, shape: { ...ERROR, details: true } },
  { spec: 'Wallets: GET /api/wallet/address, signed in', name: 'GET /api/wallet/address', send: () => get(walleter, '/api/wallet/address'), status: 200, shape: { authenticated: true, address: true } },
  { spec: 'Wallets: GET /api/wallet/address, anonymous, not configured', name: 'GET /api/wallet/address, anonymous', send: () => ({ method: 'GET', url: '/api/wallet/address' }), status: 200, shape: { authenticated: true, needsAuth: true, error: true, setup: true } },
  { spec: 'Wallets: POST /api/wallet/create, not configured (500, setup)', name: 'POST /api/wallet/create, not configured', send: () => post(walleter, '/api/wallet/create', { email: walleter.email }), status: 500, shape: { ...ERROR, setup: true } },
  { spec: 'Wallets: GET /api/wallet/hosted', name: 'GET /api/wallet/hosted', send: () => ({ method: 'GET', url: '/api/wallet/hosted' }), status: 200, shape: { status: true, type: true, supportedChains: [true] } },
  { spec: 'Wallets: POST /api/wallet/hosted', name: 'POST /api/wallet/hosted', send: () => post(shared.user, '/api/wallet/hosted', {}), status: 200, shape: { success: true, address: true, network: true } },
  { spec: 'Wallets: POST /api/wallet/hosted, a bad key (400)', name: 'POST /api/wallet/hosted, bad key', send: () => post(agentOwner.user, '/api/wallet/hosted', { privateKey: '0x1234' }), status: 400, shape: ERROR },
  {
    spec: 'Metrics: GET /api/metrics (platform metrics fields)',
    name: 'GET /api/metrics',
    send: () => ({ method: 'GET', url: '/api/metrics' }),
    status: 200,
    shape: {
      metrics: {
        agents: { total: true, active: true, inactive: true, failed: true },
        messages: { today: true, thisWeek: true, thisMonth: true },
        deployments: { total: true, successful: true, failed: true },
        uptime: { platformUptime: true, averageAgentUptime: true },
        performance: { averageResponseTime: true, successRate: true, errorRate: true },
        storage: { used: true, total: true, percentUsed: true },
      },
      timestamp: true,
      status: true,
    },
  },
  {
    spec: 'Metrics: GET /api/metrics/:userId/historical',
    name: 'GET /api/metrics/:userId/historical',
    send: () => get(shared.user, `/api/metrics/${shared.user.id}/historical?range=7d`),
    status: 200,
    shape: { userId: true, timeRange: true, metrics: [{ timestamp: true, cpu: true, memory: true, messages: true, errors: true }], averages: { cpu: true, memory: true, messages: true, errors: true } },
  },
  {
    spec: 'Metrics: GET /api/metrics/:userId/historical, bad range (400)',
    name: 'GET /api/metrics/:userId/historical, bad range',
    send: () => get(shared.user, `/api/metrics/${shared.user.id}/historical?range=1y`),
    status: 400,
    shape: { ...ERROR, details: true },
  },
  {
    spec: 'Metrics: GET /api/metrics/:userId/performance',
    name: 'GET /api/metrics/:userId/performance',
    send: () => get(shared.user, `/api/metrics/${shared.user.id}/performance`),
    status: 200,
    shape: { cpu: true, memory: true, errorRate: true, responseTime: true },
  },
  {
    spec: 'Metrics: GET /api/metrics/:userId/summary (summary fields)',
    name: 'GET /api/metrics/:userId/summary',
    send: () => get(shared.user, `/api/metrics/${shared.user.id}/summary`),
    status: 200,
    shape: {
      revenue: { month: true, total: true, change: true },
      bookings: { completed: true, pending: true, conversion: true },
      fans: { total: true, active: true, growth: true, segmentation: { superfans: true, casual: true, new: true } },
      streams: { monthlyListeners: true, monthlyStreams: true, growth: true },
      skills: { active: true, total: true, growth: true },
    },
  },
  {
    spec: "Metrics: another user's figures (CONTRACT.md 8: 404)",
    name: 'GET /api/metrics/:userId/summary, another user',
    send: () => get(shared.user, `/api/metrics/${agentOwner.user.id}/summary`),
    status: 404,
    shape: ERROR,
  },
  // docs/operations.md, Metrics: Prometheus text, loopback only without METRICS_TOKEN
  { spec: 'Issue 12: GET /metrics (Prometheus text)', name: 'GET /metrics', send: () => ({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_BEARER}` } }), status: 200 },
  // resend-verification and the admin webhook endpoints (docs/operations.md, Webhooks)
  { spec: 'docs/decisions: POST /api/auth/resend-verification (same answer for any address)', name: 'POST /api/auth/resend-verification', send: () => ({ method: 'POST', url: '/api/auth/resend-verification', payload: { email: uniqueEmail() } }), status: 200, shape: { message: true } },
  { spec: 'docs/operations.md, Webhooks, create (the secret shown once)', name: 'POST /api/admin/webhooks', send: async () => post(await webhookAdmin(), '/api/admin/webhooks', { url: 'https://hooks.example.com/in', eventTypes: ['user.created'] }), status: 201, shape: { ...WEBHOOK_ENDPOINT, secret: true } },
  { spec: 'docs/operations.md, Webhooks, list', name: 'GET /api/admin/webhooks', send: async () => (await hookEndpoint(), get(await webhookAdmin(), '/api/admin/webhooks')), status: 200, shape: { endpoints: [WEBHOOK_ENDPOINT] } },
  { spec: 'docs/operations.md, Webhooks, rotate the secret', name: 'POST /api/admin/webhooks/:id/rotate-secret', send: async () => post(await webhookAdmin(), `/api/admin/webhooks/${await hookEndpoint()}/rotate-secret`, {}), status: 200, shape: { ...WEBHOOK_ENDPOINT, secret: true } },
  {
    spec: 'docs/operations.md, Webhooks, recent deliveries',
    name: 'GET /api/admin/webhooks/:id/deliveries',
    send: async () => {
      const id = await hookEndpoint();
      await owner.query(`insert into webhook_deliveries (endpoint_id, event_id, event_type, status, attempts, last_status_code, last_error) values ($1, 1, 'user.created', 'retrying', 1, 500, 'HTTP 500')`, [id]);
      return get(await webhookAdmin(), `/api/admin/webhooks/${id}/deliveries`);
    },
    status: 200,
    shape: { deliveries: [{ id: true, eventId: true, eventType: true, status: true, attempts: true, lastStatusCode: true, lastError: true, createdAt: true, updatedAt: true, deliveredAt: true }] },
  },
  { spec: 'docs/operations.md, Webhooks, delete', name: 'DELETE /api/admin/webhooks/:id', send: async () => ({ method: 'DELETE', url: `/api/admin/webhooks/${await hookEndpoint()}`, headers: (await webhookAdmin()).headers }), status: 200, shape: { success: true } },
  { spec: 'Versioning: GET /api/agents/:id/logs deprecated', name: 'GET /api/agents/:id/logs', send: () => ({ method: 'GET', url: `/api/agents/${sharedAgent.id}/logs` }), status: 410, shape: DEPRECATED },

  // The API reference (issue 12 item 4): its content is held in openapi.test.ts
  { spec: 'issue 12: the OpenAPI document', name: 'GET /api/openapi.json', send: () => ({ method: 'GET', url: '/api/openapi.json' }), status: 200 },
  { spec: 'issue 12: the reference page', name: 'GET /docs', send: () => ({ method: 'GET', url: '/docs' }), status: 200 },
  { spec: 'issue 12: the reference page (redirects to it)', name: 'GET /docs/static/index.html', send: () => ({ method: 'GET', url: '/docs/static/index.html' }), status: 302, location: true },
  { spec: 'issue 12: the reference page', name: 'GET /docs/static/swagger-initializer.js', send: () => ({ method: 'GET', url: '/docs/static/swagger-initializer.js' }), status: 200 },
  { spec: 'issue 12: the reference page', name: 'GET /docs/static/*', send: () => ({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' }), status: 200 },
  { spec: 'issue 12: the document as the page loads it', name: 'GET /docs/json', send: () => ({ method: 'GET', url: '/docs/json' }), status: 200 },
  { spec: 'issue 12: the document as YAML', name: 'GET /docs/yaml', send: () => ({ method: 'GET', url: '/docs/yaml' }), status: 200 },
];

/** Where `value` differs from `shape`, one line per difference. */
function differences(value: unknown, shape: Shape, at = 'body'): string[] {
  if (shape === true) return [];
  if (Array.isArray(shape)) {
    if (!Array.isArray(value) || value.length === 0) return [`${at}: expected a non-empty array, got ${JSON.stringify(value)}`];
    return value.flatMap((item, i) => differences(item, shape[0] as Shape, `${at}[${i}]`));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at}: expected an object, got ${JSON.stringify(value)}`];
  const expected = Object.keys(shape);
  const actual = Object.keys(value);
  return [
    ...expected.filter((k) => !actual.includes(k)).map((k) => `${at}.${k}: missing`),
    ...actual.filter((k) => !expected.includes(k)).map((k) => `${at}.${k}: not in the spec`),
    ...expected.filter((k) => actual.includes(k)).flatMap((k) => differences((value as Record<string, unknown>)[k], (shape as Record<string, Shape>)[k]!, `${at}.${k}`)),
  ];
}

describe('response shapes against the spec tables', () => {
  it('every route the server registers has at least one row here', () => {
    const covered = new Set(ROWS.map((r) => r.name.split(/[, ]/).slice(0, 2).join(' ')));
    // the web console's page and assets (issue 13) are not API routes: test/http/web-console.test.ts covers them
    const consoleRoute = (url: string) => url === '/' || url === '/*' || url.startsWith('/assets/');
    expect(app.routeInventory().filter((r) => !consoleRoute(r.url)).map((r) => `${r.method} ${r.url}`).filter((route) => !covered.has(route))).toEqual([]);
  });

  it.each(ROWS.map((r) => [r.name, r] as const))('%s answers the fields its spec row names', async (_name, row) => {
    const res = await call(app, await row.send());
    expect({ status: res.status, body: res.status === row.status ? undefined : res.body }).toEqual({ status: row.status, body: undefined });
    if (row.location) expect(res.headers.location).toEqual(expect.any(String));
    if (typeof row.shape === 'string') expect(res.body).toBe(row.shape);
    else if (row.shape) expect(differences(res.body, row.shape), row.spec).toEqual([]);
  });
});
