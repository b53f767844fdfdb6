import type { Authenticator } from '../../../../application/auth/authenticator.js';
import type { SessionCookies } from '../plugins/cookies.js';
import type { CsrfTokens } from '../plugins/csrf.js';

/**
 * What every route plugin is given: the edge helpers. A plugin's use cases come through its own
 * options (`RouteEdge & XRouteDeps`), resolved once in routes/index.ts.
 */
export interface RouteEdge {
  cookies: SessionCookies;
  csrf: CsrfTokens;
  authenticator: Authenticator;
  /** Per-IP limit for the auth routes, requests per minute. */
  authRateLimit: number;
}
