import type { InjectionToken } from 'tsyringe';
import type { OAuthProfile, OAuthProvider } from '../../domain/accounts/oauth.js';

/** What the callback needs back from the start of a flow: kept server-side, never in the browser. */
export interface OAuthFlowSecrets {
  state: string;
  codeVerifier: string;
  /** OpenID Connect only (the ID token must carry it back); null for plain OAuth 2. */
  nonce: string | null;
}

/**
 * The OAuth providers' protocol (authorization code with PKCE S256 and state; OpenID Connect adds
 * a nonce and the ID token's checks). Network calls: never inside a unit of work.
 */
export interface OAuthClient {
  /** Whether the provider's client id and secret are set. */
  isConfigured(provider: OAuthProvider): boolean;
  /**
   * Fresh random state, verifier and nonce, and the provider's authorization URL carrying them.
   * Throws UpstreamUnavailableError when the provider's discovery document cannot be read.
   */
  begin(provider: OAuthProvider, redirectUri: string): Promise<{ authorizationUrl: string; secrets: OAuthFlowSecrets }>;
  /**
   * Exchanges the code in `callbackUrl` (checking state, PKCE and, for OpenID Connect, the ID
   * token and its nonce) and reads who signed in. Throws OAuthRejectedError when the provider
   * refuses or its answer does not check out, UpstreamUnavailableError when it cannot be reached.
   */
  finish(provider: OAuthProvider, callbackUrl: URL, secrets: OAuthFlowSecrets): Promise<OAuthProfile>;
}
export const OAUTH_CLIENT: InjectionToken<OAuthClient> = Symbol('OAuthClient');
