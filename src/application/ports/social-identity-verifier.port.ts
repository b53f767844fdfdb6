import type { InjectionToken } from 'tsyringe';

/**
 * Checks a social identity token (fidToken) against the identity provider's published keys.
 * Resolves the fid the token was issued for. Throws SocialTokenInvalidError for any token that is
 * not a currently valid one for this service, SocialIdentityNotConfiguredError when no provider
 * is configured, and UpstreamUnavailableError when the provider's keys cannot be read: a fault
 * of the provider is never reported as the caller's bad token.
 */
export interface SocialIdentityVerifier {
  verify(token: string): Promise<{ fid: number }>;
}
export const SOCIAL_IDENTITY_VERIFIER: InjectionToken<SocialIdentityVerifier> = Symbol('SocialIdentityVerifier');
