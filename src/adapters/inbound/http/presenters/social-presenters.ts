import type { RefreshedSocialSession } from '../../../../application/identity/refresh-social-session.use-case.js';
import type { SocialSignIn } from '../../../../application/identity/verify-social-identity.use-case.js';
import type { SocialIdentitySettings } from '../../../../application/ports/social-identity-settings.port.js';
import { SOCIAL_SESSION_TTL_SECONDS } from '../../../../domain/identity/social-identity.js';

/** POST /api/auth/social/verify: the spec's fields, plus `refreshToken` (CONTRACT.md section 7). */
export const presentSocialSignIn = (r: SocialSignIn) => ({
  success: true,
  sessionToken: r.sessionToken,
  address: r.address,
  message: r.created ? `Signed up with social identity fid ${r.fid}` : `Signed in with social identity fid ${r.fid}`,
  tokenGated: r.tokenGated,
  accessLevel: r.accessLevel,
  refreshToken: r.refreshToken,
});

/** POST /api/auth/social/refresh: the spec's fields, plus the rotated `refreshToken`. */
export const presentSocialRefresh = (r: RefreshedSocialSession) => ({
  success: true,
  sessionToken: r.sessionToken,
  expiresIn: r.expiresIn,
  message: 'Session refreshed',
  refreshToken: r.refreshToken,
});

/** GET /api/auth/social/verify: what a client needs to obtain and send a token (docs/decisions/0099-social-token-checking.md). */
export const presentVerifyMetadata = (s: SocialIdentitySettings) => ({
  endpoint: '/api/auth/social/verify',
  method: 'POST',
  description: 'Sign in with a social identity token (fidToken); an address triggers the token-gating check.',
  configured: s.configured,
  issuer: s.issuer,
  audience: s.audience,
  algorithms: [...s.algorithms],
  request: { fidToken: 'string, required', address: 'string, optional (0x-prefixed, 42 characters)' },
  response: ['success', 'sessionToken', 'address', 'message', 'tokenGated', 'accessLevel', 'refreshToken'],
  authentication: 'Authorization: Bearer <sessionToken>, or the session cookie set by this call',
  expiresIn: SOCIAL_SESSION_TTL_SECONDS,
});

/** GET /api/auth/social/refresh. */
export const presentRefreshMetadata = (s: SocialIdentitySettings) => ({
  endpoint: '/api/auth/social/refresh',
  method: 'POST',
  description: 'Trade a refresh token for a new session token and a new refresh token; each refresh token works once.',
  configured: s.configured,
  request: { refreshToken: 'string, required (base64)' },
  response: ['success', 'sessionToken', 'expiresIn', 'message', 'refreshToken'],
  expiresIn: SOCIAL_SESSION_TTL_SECONDS,
});
