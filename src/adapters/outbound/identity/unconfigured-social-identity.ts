import { SocialIdentityNotConfiguredError } from '../../../application/identity/social-identity.errors.js';
import type { SocialIdentityVerifier } from '../../../application/ports/social-identity-verifier.port.js';

/** Without SOCIAL_JWKS_URL, SOCIAL_ISSUER and SOCIAL_AUDIENCE no token can be trusted: 503, never a guess. */
export class UnconfiguredSocialIdentity implements SocialIdentityVerifier {
  async verify(): Promise<never> {
    throw new SocialIdentityNotConfiguredError();
  }
}
