import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RefreshSocialSession } from '../../../../application/identity/refresh-social-session.use-case.js';
import type { VerifySocialIdentity } from '../../../../application/identity/verify-social-identity.use-case.js';
import type { SocialIdentitySettings } from '../../../../application/ports/social-identity-settings.port.js';
import { socialRefreshBody, socialVerifyBody } from '../schemas/social.schema.js';
import { presentRefreshMetadata, presentSocialRefresh, presentSocialSignIn, presentVerifyMetadata } from '../presenters/social-presenters.js';
import type { RouteEdge } from './route-context.js';
import { socialMetadataResponse, socialRefreshResponse, socialSignInResponse } from '../schemas/identity.responses.js';

export interface SocialRouteDeps {
  socialIdentitySettings: SocialIdentitySettings;
  verifySocialIdentity: VerifySocialIdentity;
  refreshSocialSession: RefreshSocialSession;
}

/**
 * Social identity sign-in (spec "Decentralized social identity and token gating"). Public, per-IP
 * limited like the other sign-in routes. Besides the body's token, a successful call sets the
 * session cookie (and its CSRF cookie), so a browser is signed in as by any other sign-in.
 */
export const socialRoutes: FastifyPluginAsyncZod<RouteEdge & SocialRouteDeps> = async (app, ctx) => {
  const { socialIdentitySettings, verifySocialIdentity, refreshSocialSession, cookies, csrf } = ctx;
  const perIp = { rateLimit: { max: ctx.authRateLimit, timeWindow: '1 minute' } };

  app.post('/api/auth/social/verify', { schema: { body: socialVerifyBody, response: { 200: socialSignInResponse } }, config: { ...perIp, auth: 'none' } }, async (req, reply) => {
    const result = await verifySocialIdentity.execute({ fidToken: req.body?.fidToken, address: req.body?.address });
    cookies.setSession(reply, result.sessionToken, result.expiresAt);
    cookies.setCsrf(reply, csrf.forSession(result.sessionId));
    return presentSocialSignIn(result);
  });

  app.post('/api/auth/social/refresh', { schema: { body: socialRefreshBody, response: { 200: socialRefreshResponse } }, config: { ...perIp, auth: 'none' } }, async (req, reply) => {
    const result = await refreshSocialSession.execute(req.body.refreshToken);
    cookies.setSession(reply, result.sessionToken, result.expiresAt);
    cookies.setCsrf(reply, csrf.forSession(result.sessionId));
    return presentSocialRefresh(result);
  });

  app.get('/api/auth/social/verify', { schema: { response: { 200: socialMetadataResponse } }, config: { auth: 'none' } }, async () => presentVerifyMetadata(socialIdentitySettings));
  app.get('/api/auth/social/refresh', { schema: { response: { 200: socialMetadataResponse } }, config: { auth: 'none' } }, async () => presentRefreshMetadata(socialIdentitySettings));
};
