import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Actor } from '../../../../application/auth/actor.js';
import { AdminRequiredError, AuthRequiredError, TokenInvalidError } from '../../../../application/auth/auth.errors.js';
import type { Authenticator } from '../../../../application/auth/authenticator.js';
import { isSocialSessionToken } from '../../../../application/identity/social-tokens.js';
import { DomainError } from '../../../../domain/shared/domain-error.js';
import { HttpEdgeError } from '../http-error.js';
import { bearerToken } from '../request-headers.js';
import type { SessionCookies } from './cookies.js';
import type { CsrfTokens } from './csrf.js';

export type AuthMode = 'required' | 'bearer' | 'optional' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call the route: `required` (the default: a route without this setting needs
     * credentials), `bearer` (required, and only as `Authorization: Bearer`: a session cookie is
     * not read, so no CSRF token either; the OpenAI-compatible API), `optional` (the caller is
     * resolved when credentials are sent) or `none`.
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
 * `Bearer sk_…` is an API key, `Bearer <social session token>` a session, any other Bearer a
 * JWT, else the session cookie.
 * State-changing calls authenticated by the cookie must echo the CSRF token.
 */
export const authentication = fp(
  async (app: FastifyInstance, opts: { authenticator: Authenticator; cookies: SessionCookies; csrf: CsrfTokens }) => {
    app.decorateRequest('actor', null);
    // The callback form, and no promise at all for a session this process knows (most signed-in
    // requests): this runs before every authenticated route.
    app.addHook('onRequest', (request, _reply, done) => {
      // routeOptions builds a new object on each read: read it once. An unknown URL answers 404 to
      // anyone, rather than 401 hiding that it does not exist.
      const { config } = request.routeOptions;
      const mode = request.is404 ? 'none' : authModeOf(config);
      if (mode === 'none') return done();
      const admitted = (caller: Caller) => {
        try {
          admit(request, mode, config, caller, opts.csrf);
        } catch (err) {
          return done(err as Error);
        }
        done();
      };
      const known = knownCaller(request, opts);
      if (known !== undefined) return admitted(known);
      identify(request, opts).then(admitted, done);
    });
  },
  { name: 'authentication' },
);

/** Sets the request's actor, or throws: credentials required and missing, an admin route, a session's state change without its CSRF token. */
function admit(request: FastifyRequest, mode: AuthMode, config: { admin?: boolean }, caller: Caller, csrf: CsrfTokens): void {
  const { actor, bearer } = mode === 'bearer' && !caller.bearer ? NOBODY : caller;
  request.actor = actor;
  if (!actor) {
    if (mode === 'required' || mode === 'bearer') throw new AuthRequiredError();
    return;
  }
  if (config.admin && actor.role !== 'admin') throw new AdminRequiredError();
  const { credential } = actor;
  // A session sent as a Bearer token (social sign-in) is not sent by the browser on its own: no CSRF.
  if (credential.kind === 'session' && !bearer && !SAFE_METHODS.has(request.method)) {
    const header = request.headers['x-csrf-token'];
    if (!csrf.matches(credential.sessionId, typeof header === 'string' ? header : undefined)) {
      throw new HttpEdgeError('CSRF_TOKEN_MISSING', header ? 'Invalid CSRF token' : 'CSRF token missing');
    }
  }
}

type Caller = { actor: Actor | null; bearer: boolean };
const NOBODY: Caller = { actor: null, bearer: false };

/**
 * identify's answer without a promise when it needs no lookup: a request with neither credential,
 * or a session cookie this process read within the cache's time. Undefined otherwise.
 */
function knownCaller(request: FastifyRequest, opts: { authenticator: Authenticator; cookies: SessionCookies }): Caller | undefined {
  if (request.headers.authorization !== undefined) return undefined;
  const sessionToken = request.cookies[opts.cookies.session];
  if (!sessionToken) return { actor: null, bearer: false };
  const actor = opts.authenticator.knownSessionActor(sessionToken);
  return actor === undefined ? undefined : { actor, bearer: false };
}

/** The caller the credentials name (and whether they came as a Bearer), or null; exported for the gateway, which authenticates itself. */
export async function identify(
  request: FastifyRequest,
  opts: { authenticator: Authenticator; cookies: SessionCookies },
): Promise<Caller> {
  try {
    const header = request.headers.authorization;
    if (header !== undefined) {
      const token = bearerToken(header);
      if (token !== undefined) return { actor: await fromBearer(token, opts.authenticator), bearer: true };
      // Another scheme (e.g. `Payment` at the gateway) is not ours to judge here: fall through.
      if (/^Bearer\b/i.test(header)) return { actor: null, bearer: true };
    }
    const sessionToken = request.cookies[opts.cookies.session];
    return { actor: sessionToken ? await opts.authenticator.fromSessionToken(sessionToken) : null, bearer: false };
  } catch (err) {
    if (err instanceof DomainError) throw err;
    request.log.error({ err }, 'authentication failed unexpectedly');
    throw new HttpEdgeError('AUTH_ERROR', 'Authentication error');
  }
}

/**
 * `sk_…` is an API key; a social session token (its own base64 label, which no JWT or API key
 * can begin with) is a session; anything else is a JWT.
 */
async function fromBearer(token: string, authenticator: Authenticator): Promise<Actor> {
  if (token.startsWith('sk_')) return authenticator.fromApiKey(token);
  if (isSocialSessionToken(token)) {
    const actor = await authenticator.fromSessionToken(token);
    if (!actor) throw new TokenInvalidError('Session ended or expired');
    return actor;
  }
  return authenticator.fromJwt(token);
}
