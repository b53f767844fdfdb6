import type { DependencyContainer } from 'tsyringe';
import type { Authenticator } from '../../../../application/auth/authenticator.js';
import type { SessionCookies } from '../plugins/cookies.js';
import type { CsrfTokens } from '../plugins/csrf.js';

/** What every route plugin is given: the container to resolve use cases from, and the edge helpers. */
export interface RouteContext {
  container: DependencyContainer;
  cookies: SessionCookies;
  csrf: CsrfTokens;
  authenticator: Authenticator;
  /** Per-IP limit for the auth routes, requests per minute. */
  authRateLimit: number;
}

/** What a route plugin is given besides the use cases it names in its own options: the edge helpers, never the container. */
export type RouteEdge = Omit<RouteContext, 'container'>;
