import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Actor } from '../../../../application/auth/actor.js';
import { AdminRequiredError, AuthRequiredError } from '../../../../application/auth/auth.errors.js';
import type { Authenticator } from '../../../../application/auth/authenticator.js';
import { DomainError } from '../../../../domain/shared/domain-error.js';
import { HttpEdgeError } from '../http-error.js';
import type { SessionCookies } from './cookies.js';
import type { CsrfTokens } from './csrf.js';

export type AuthMode = 'required' | 'optional' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call the route: `required` (the default: a route without this setting needs
     * credentials), `optional` (the caller is resolved when credentials are sent) or `none`.
     */
    auth?: AuthMode;
    admin?: boolean;
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Authentication is the default: a public route says so (`auth: 'none'` or `'optional'`). */
export const authModeOf = (config: { auth?: AuthMode } | undefined): AuthMode => config?.auth ?? 'required';

/**
 * Resolves the caller before the body is read (CONTRACT.md section 4 precedence):
 * `Bearer sk_…` is an API key, any other Bearer a JWT, else the session cookie.
 * State-changing calls authenticated by the cookie must echo the CSRF token.
 */
export const authentication = fp(
  async (app: FastifyInstance, opts: { authenticator: Authenticator; cookies: SessionCookies; csrf: CsrfTokens }) => {
    app.decorateRequest('actor', null);
    app.addHook('onRequest', async (request) => {
      // routeOptions builds a new object on each read: read it once. An unknown URL answers 404 to
      // anyone, rather than 401 hiding that it does not exist.
      const { config } = request.routeOptions;
      const mode = request.is404 ? 'none' : authModeOf(config);
      if (mode === 'none') return;
      request.actor = await identify(request, opts);
      if (!request.actor) {
        if (mode === 'required') throw new AuthRequiredError();
        return;
      }
      if (config.admin && request.actor.role !== 'admin') throw new AdminRequiredError();
      const { credential } = request.actor;
      if (credential.kind === 'session' && !SAFE_METHODS.has(request.method)) {
        const header = request.headers['x-csrf-token'];
        if (!opts.csrf.matches(credential.sessionId, typeof header === 'string' ? header : undefined)) {
          throw new HttpEdgeError('CSRF_TOKEN_MISSING', header ? 'Invalid CSRF token' : 'CSRF token missing');
        }
      }
    });
  },
  { name: 'authentication' },
);

/** The caller the credentials name, or null; exported for the gateway, which authenticates itself. */
export async function identify(request: FastifyRequest, opts: { authenticator: Authenticator; cookies: SessionCookies }): Promise<Actor | null> {
  try {
    const header = request.headers.authorization;
    if (header !== undefined) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (match) {
        const token = match[1]!;
        return token.startsWith('sk_') ? await opts.authenticator.fromApiKey(token) : await opts.authenticator.fromJwt(token);
      }
      // Another scheme (e.g. `Payment` at the gateway) is not ours to judge here: fall through.
      if (/^Bearer\b/i.test(header)) return null;
    }
    const sessionToken = request.cookies[opts.cookies.session];
    return sessionToken ? await opts.authenticator.fromSessionToken(sessionToken) : null;
  } catch (err) {
    if (err instanceof DomainError) throw err;
    request.log.error({ err }, 'authentication failed unexpectedly');
    throw new HttpEdgeError('AUTH_ERROR', 'Authentication error');
  }
}
