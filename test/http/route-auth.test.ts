import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AuthMode } from '../../src/adapters/inbound/http/plugins/authentication.js';
import { call, signUpAndIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * The routes anyone may call, each with the spec's (or CONTRACT.md's) reason. Every other route
 * requires credentials, and does so by default: a route that forgets to say who may call it is
 * closed, not open.
 */
const PUBLIC_ROUTES: Record<string, { auth: Exclude<AuthMode, 'required'>; why: string }> = {
  'GET /api/health': { auth: 'none', why: 'spec Health and heartbeat: Auth none' },
  'GET /health': { auth: 'none', why: 'spec Health and heartbeat: the platform health check' },
  'POST /api/register': { auth: 'none', why: 'spec Accounts and sign-in: Auth none' },
  'POST /api/auth/callback/credentials': { auth: 'none', why: 'spec Accounts and sign-in: Auth none' },
  'POST /api/auth/forgot-password': { auth: 'none', why: 'spec Accounts and sign-in: Auth none' },
  'POST /api/auth/reset-password': { auth: 'none', why: 'spec Accounts and sign-in: Auth none' },
  'GET /api/auth/verify-email': { auth: 'none', why: 'CONTRACT.md 4: the link in the verification mail' },
  'POST /api/auth/resend-verification': { auth: 'none', why: 'issue 12: a new verification mail for an address, before any sign-in (same answer for any address)' },
  'GET /api/auth/nonce': { auth: 'none', why: 'CONTRACT.md 4: the SIWE nonce, before any sign-in' },
  'GET /api/auth/providers': { auth: 'none', why: 'CONTRACT.md 7 sign-in methods (docs/decisions/0282): what the sign-in page offers, before any sign-in' },
  'POST /api/auth/callback/wallet': { auth: 'none', why: 'spec Accounts and sign-in: Auth none' },
  'POST /api/auth/token-gating/verify': { auth: 'none', why: 'spec Decentralized social identity and token gating: Auth none' },
  'GET /api/auth/token-gating/verify': { auth: 'none', why: 'spec Decentralized social identity and token gating: Auth none' },
  'GET /api/auth/codehost': { auth: 'none', why: 'spec Accounts and sign-in: Auth none (starts the OAuth flow)' },
  'GET /api/auth/idp': { auth: 'none', why: 'spec Accounts and sign-in: Auth none (starts the OAuth flow)' },
  'GET /api/auth/callback/codehost': { auth: 'none', why: 'CONTRACT.md 2: the OAuth callback; the state cookie and the provider authenticate it' },
  'GET /api/auth/callback/idp': { auth: 'none', why: 'CONTRACT.md 2: the OAuth callback; the state cookie and the provider authenticate it' },
  'GET /api/auth/session': { auth: 'optional', why: 'CONTRACT.md 4: {user} or {user: null}' },
  'GET /api/auth/csrf': { auth: 'optional', why: 'CONTRACT.md 4: bound to the session when there is one' },
  'POST /api/auth/signout': { auth: 'optional', why: 'CONTRACT.md 4: ends the session if any, clears the cookies' },
  'POST /api/auth/social/verify': { auth: 'none', why: 'spec Decentralized social identity: Auth none (the fidToken is the credential)' },
  'GET /api/auth/social/verify': { auth: 'none', why: 'spec Decentralized social identity: Auth none (endpoint metadata)' },
  'POST /api/auth/social/refresh': { auth: 'none', why: 'spec Decentralized social identity: Auth none (the refresh token is the credential)' },
  'GET /api/auth/social/refresh': { auth: 'none', why: 'spec Decentralized social identity: Auth none (endpoint metadata)' },
  'GET /api/psp/dev/complete': { auth: 'none', why: 'docs/decisions, billing: the signed link is the capability' },
  'POST /api/checkout': { auth: 'none', why: 'spec Billing: legacy, 410 to anyone (CONTRACT.md 7 deprecated endpoints)' },
  'POST /api/webhooks/psp': { auth: 'none', why: 'spec Events: authenticated by the psp-signature header' },
  'GET /api/ai/health': { auth: 'none', why: 'spec AI layer: no authentication except chat' },
  'GET /api/ai/models': { auth: 'none', why: 'spec AI layer: no authentication except chat' },
  'GET /api/ai/models/:provider': { auth: 'none', why: 'spec AI layer: no authentication except chat' },
  'POST /api/ai/models/select': { auth: 'none', why: 'spec AI layer: no authentication except chat' },
  'POST /api/ai/estimate-cost': { auth: 'none', why: 'spec AI layer: no authentication except chat' },
  'GET /api/agents': { auth: 'optional', why: 'spec Agents: with no session returns an empty list, not 401' },
  'POST /api/agents': { auth: 'none', why: 'spec Versioning: deprecated, 410 to anyone (CONTRACT.md 7 deprecated endpoints)' },
  'PUT /api/agents/:id': { auth: 'none', why: 'spec Versioning: deprecated, 410 to anyone (CONTRACT.md 7 deprecated endpoints)' },
  'DELETE /api/agents/:id': { auth: 'none', why: 'spec Versioning: deprecated, 410 to anyone (CONTRACT.md 7 deprecated endpoints)' },
  'GET /api/agents/:id/logs': { auth: 'none', why: 'spec Versioning: deprecated, 410 to anyone (CONTRACT.md 7 deprecated endpoints)' },
  'GET /api/skills': { auth: 'none', why: 'spec Skills: Auth none' },
  'GET /api/wallet/address': { auth: 'optional', why: 'spec Wallets: Auth none; {authenticated: false, needsAuth} without a caller (docs/decisions)' },
  'POST /api/wallet/create': { auth: 'optional', why: 'spec Wallets: Auth none; creates the caller\'s wallet, 401 without one (docs/decisions)' },
  'GET /api/wallet/hosted': { auth: 'none', why: 'spec Wallets: Auth none; the provider\'s status' },
  'POST /api/wallet/hosted': { auth: 'optional', why: 'spec Wallets: Auth none; creates or imports the caller\'s wallet, 401 without one (docs/decisions)' },
  'POST /api/provision': { auth: 'optional', why: 'CONTRACT.md 7: the body (400) and the plan (402) are checked before authentication (401, in the handler)' },
  'GET /api/metrics': { auth: 'none', why: 'spec Metrics: Auth none (platform-wide totals only, docs/decisions)' },
  'GET /metrics': { auth: 'none', why: 'docs/operations.md: Prometheus text; METRICS_TOKEN bearer, else loopback callers only (checked in the handler)' },
  'POST /api/runtime/chat': {
    auth: 'none',
    why: "CONTRACT.md 7 agent runtime's work: authenticates itself by the instance's gateway token only (401 without one); user credentials are refused there",
  },
  'GET /api/openapi.json': { auth: 'none', why: 'issue 12: the OpenAPI document of the public interface' },
  'GET /docs': { auth: 'none', why: 'issue 12: the interactive API reference' },
  'GET /docs/json': { auth: 'none', why: 'issue 12: the document, as the reference page loads it' },
  'GET /docs/yaml': { auth: 'none', why: 'issue 12: the document as YAML' },
  'GET /docs/static/index.html': { auth: 'none', why: "issue 12: the reference page's own assets" },
  'GET /docs/static/swagger-initializer.js': { auth: 'none', why: "issue 12: the reference page's own assets" },
  'GET /docs/static/*': { auth: 'none', why: "issue 12: the reference page's own assets" },
  'POST /api/runtime/tools': {
    auth: 'none',
    why: "the agent runtime runs its model's tool calls: authenticated exactly like /api/runtime/chat, by the instance's gateway token only",
  },
  'POST /api/v1/gateway': {
    auth: 'none',
    why: 'spec Gateway: authenticates itself, by a session, API key or JWT (processor method, 401 Unauthorized without) or by a Payment credential (MPP)',
  },
  'OPTIONS /api/v1/gateway': { auth: 'none', why: 'spec Gateway: the CORS preflight' },
  'GET /api/v1/gateway/discovery/resources': { auth: 'none', why: "the gateway's prices for agent wallets that have no account: public, as the 402 that would tell them is" },
  'GET /v1/models': { auth: 'bearer', why: 'CONTRACT.md OpenAI-compatible API: a Bearer API key or JWT only, never the session cookie (401 invalid_api_key without one)' },
  'POST /v1/chat/completions': { auth: 'bearer', why: 'CONTRACT.md OpenAI-compatible API: a Bearer API key or JWT only, never the session cookie, so no CSRF token' },
  'GET /': { auth: 'none', why: 'issue 13: the web console, the same page for everyone; the API it calls decides the rest' },
  'GET /*': { auth: 'none', why: 'issue 13: the web console at its client-side routes (an /api path keeps the JSON 404)' },
  'GET /assets/*': { auth: 'none', why: "issue 13: the web console's hashed scripts and styles (one route per built file)" },
};

const { app } = await startTestApp({
  routes: [
    async (a: FastifyInstance) => {
      // answers declared, as every route's is: the test app holds answers to the document
      const schema = { response: { 200: z.object({ userId: z.string().optional() }) } };
      a.get('/api/test/unmarked', { schema }, async (req) => ({ userId: req.actor?.userId }));
      await a.register(async (scope) => {
        scope.post('/api/test/nested-unmarked', { schema }, async (req) => ({ userId: req.actor?.userId }));
      });
    },
  ],
});
const served = () => app.routeInventory().filter((r) => !r.url.startsWith('/api/test/'));
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, 'x');

describe('who may call each route', () => {
  it('the public routes are exactly the table above, each marked explicitly with its mode', () => {
    const open = served().filter((r) => r.auth !== 'required');
    // the console's assets are one route per built file, their names content hashes
    const name = (r: { method: string; url: string }) => `${r.method} ${r.url.startsWith('/assets/') ? '/assets/*' : r.url}`;
    expect(Object.fromEntries(open.map((r) => [name(r), r.declaredAuth]))).toEqual(
      Object.fromEntries(Object.entries(PUBLIC_ROUTES).map(([route, p]) => [route, p.auth])),
    );
  });

  it('every other route answers 401 AUTH_REQUIRED without credentials, before reading its input', async () => {
    const closed = served().filter((r) => r.auth === 'required');
    expect(closed.length).toBeGreaterThan(10);
    for (const r of closed) {
      const res = await call(app, { method: r.method as 'GET', url: concrete(r.url), ...(r.method === 'GET' ? {} : { payload: {} }) });
      expect({ route: `${r.method} ${r.url}`, status: res.status, code: res.body?.code }).toEqual({ route: `${r.method} ${r.url}`, status: 401, code: 'AUTH_REQUIRED' });
    }
  });

  it('when a new route says nothing about auth, then it requires credentials, in a nested scope too', async () => {
    expect(app.routeInventory().filter((r) => r.url.startsWith('/api/test/')).map((r) => [r.url, r.declaredAuth, r.auth])).toEqual([
      ['/api/test/unmarked', undefined, 'required'],
      ['/api/test/nested-unmarked', undefined, 'required'],
    ]);
    for (const [method, url] of [['GET', '/api/test/unmarked'], ['POST', '/api/test/nested-unmarked']] as const) {
      const res = await call(app, { method, url });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('AUTH_REQUIRED');
    }
    const u = await signUpAndIn(app);
    expect((await call(app, { method: 'GET', url: '/api/test/unmarked', headers: { cookie: u.cookie } })).body).toEqual({ userId: u.id });
    // a state-changing call by session still needs the CSRF token on a route that said nothing
    expect((await call(app, { method: 'POST', url: '/api/test/nested-unmarked', headers: { cookie: u.cookie } })).body.code).toBe('CSRF_TOKEN_MISSING');
    expect((await call(app, { method: 'POST', url: '/api/test/nested-unmarked', headers: u.headers })).body).toEqual({ userId: u.id });
  });

  it('an unknown URL still answers 404, not 401', async () => {
    const res = await call(app, { method: 'GET', url: '/api/no-such-thing' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});
