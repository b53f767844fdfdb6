import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CompleteOAuthSignIn } from '../../../../application/accounts/complete-oauth-sign-in.use-case.js';
import { oauthRedirectUri, type StartOAuthSignIn } from '../../../../application/accounts/start-oauth-sign-in.use-case.js';
import type { AuthSettings } from '../../../../application/ports/auth-settings.port.js';
import type { SignInMethods } from '../../../../application/ports/sign-in-methods.port.js';
import { OAUTH_PROVIDERS } from '../../../../domain/accounts/oauth.js';
import { oauthCallbackQuery } from '../schemas/oauth.schema.js';
import type { RouteEdge } from './route-context.js';
import { redirectResponse, signInMethodsResponse } from '../schemas/accounts.responses.js';

export interface OAuthRouteDeps {
  authSettings: AuthSettings;
  signInMethods: SignInMethods;
  startOAuthSignIn: StartOAuthSignIn;
  completeOAuthSignIn: CompleteOAuthSignIn;
}

/**
 * OAuth sign-in: GET /api/auth/<provider> sends the browser to the provider; the provider sends
 * it back to /api/auth/callback/<provider>, which sets the session cookie and redirects to APP_URL.
 */
export const oauthRoutes: FastifyPluginAsyncZod<RouteEdge & OAuthRouteDeps> = async (app, ctx) => {
  const { authSettings, signInMethods, startOAuthSignIn, completeOAuthSignIn, cookies, csrf } = ctx;
  const appUrl = authSettings.appUrl;
  const perIp = { rateLimit: { max: ctx.authRateLimit, timeWindow: '1 minute' } };

  // CONTRACT.md section 7 "sign-in methods": public, from configuration
  app.get('/api/auth/providers', {
    schema: { summary: 'The ways of signing in this deployment has configured', operationId: 'listSignInMethods', response: { 200: signInMethodsResponse } },
    config: { ...perIp, auth: 'none' },
  }, async () => signInMethods);

  for (const provider of OAUTH_PROVIDERS) {
    app.get(`/api/auth/${provider}`, { schema: { response: { 302: redirectResponse } }, config: { ...perIp, auth: 'none' } }, async (_req, reply) => {
      const flow = await startOAuthSignIn.execute(provider);
      cookies.setOAuthState(reply, provider, flow.state, flow.expiresAt);
      return reply.redirect(flow.authorizationUrl, 302);
    });

    app.get(`/api/auth/callback/${provider}`, { schema: { querystring: oauthCallbackQuery, response: { 302: redirectResponse } }, config: { ...perIp, auth: 'none' } }, async (req, reply) => {
      // The flow's cookie is spent whatever happens next: a retry starts a new flow.
      cookies.clearOAuthState(reply, provider);
      // The registered redirect URI with the provider's query: right even when APP_URL has a path.
      const callbackUrl = new URL(oauthRedirectUri(appUrl, provider));
      callbackUrl.search = new URL(req.url, 'http://callback.invalid').search;
      const result = await completeOAuthSignIn.execute({
        provider,
        callbackUrl,
        browserState: cookies.oauthState(req, provider),
      });
      cookies.setSession(reply, result.sessionToken, result.expiresAt);
      cookies.setCsrf(reply, csrf.forSession(result.sessionId));
      return reply.redirect(`${appUrl}/`, 302);
    });
  }
};
