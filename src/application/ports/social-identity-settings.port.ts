import type { InjectionToken } from 'tsyringe';

/** What GET /api/auth/social/verify tells a client about the configured provider. */
export interface SocialIdentitySettings {
  configured: boolean;
  issuer: string | null;
  audience: string | null;
  algorithms: readonly string[];
}
export const SOCIAL_IDENTITY_SETTINGS: InjectionToken<SocialIdentitySettings> = Symbol('SocialIdentitySettings');
