/**
 * The only 5xx allowed, each a documented answer, matched by status and error code so no other 5xx of
 * the same route slips through: vendors the test app does not configure (no OAuth client, no payment
 * webhook secret, no chain, no hosted-wallet provider; CONTRACT.md section 8 and the docs/decisions),
 * and the spec's own 500 of /api/health when the host is loaded (this machine may be, under the suite).
 */
const oauthOff = [{ status: 503, code: 'OAUTH_NOT_CONFIGURED' }];
const chainOff = [{ status: 503, code: 'CHAIN_NOT_CONFIGURED' }];
const hostedOff = [{ status: 500, code: 'HOSTED_WALLET_NOT_CONFIGURED' }];
export const ALLOWED_5XX: Record<string, { status: number; code?: string; health?: string }[]> = {
  'GET /api/health': [{ status: 500, health: 'unhealthy' }],
  'GET /api/auth/codehost': oauthOff,
  'GET /api/auth/callback/codehost': oauthOff,
  'GET /api/auth/idp': oauthOff,
  'GET /api/auth/callback/idp': oauthOff,
  'POST /api/webhooks/psp': [{ status: 503, code: 'WEBHOOK_NOT_CONFIGURED' }],
  'POST /api/auth/token-gating/verify': chainOff,
  'GET /api/auth/token-gating/verify': chainOff,
  'POST /api/wallet/create': hostedOff,
  'POST /api/wallet/hosted': hostedOff,
  // a stateful skill whose vendor (a treasury's chain, a hosted wallet) is not set: 501 NOT_CONFIGURED, as docs/decisions say
  'POST /api/skills/:slug': [{ status: 501, code: 'NOT_CONFIGURED' }],
  'POST /api/auth/social/verify': [{ status: 503, code: 'SOCIAL_NOT_CONFIGURED' }],
  'POST /api/auth/social/refresh': [{ status: 503, code: 'SOCIAL_NOT_CONFIGURED' }],
  // the fuzz app runs no worker: a lifecycle command for A's instance times out as documented (502)
  // the OpenAI-compatible API's chat with no provider configured: 502 provider_error, in OpenAI's body
  'POST /v1/chat/completions': [{ status: 502, code: 'provider_error' }],
  ...Object.fromEntries(['start', 'stop', 'restart', 'update', 'repair', 'reset-memory'].map((m) => [`POST /api/instance/:userId/${m}`, [{ status: 502, code: 'UPSTREAM_UNAVAILABLE' }]])),
};

export function allowed5xx(route: string, status: number, text: string): boolean {
  let body: { code?: string; health?: string; error?: { code?: string } } = {};
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  // OpenAI's error body (the /v1 routes) carries its code inside `error`
  const code = body.code ?? body.error?.code;
  return (ALLOWED_5XX[route] ?? []).some((a) => a.status === status && (a.code === undefined || a.code === code) && (a.health === undefined || a.health === body.health));
}
