import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { UpstreamUnavailableError } from '../../../application/errors.js';
import { SocialTokenInvalidError } from '../../../application/identity/social-identity.errors.js';
import type { SocialIdentityVerifier } from '../../../application/ports/social-identity-verifier.port.js';
import { parseFid } from '../../../domain/identity/social-identity.js';

/**
 * Asymmetric algorithms only, pinned: `none` and the HMAC family (whose "key" would be the public
 * JWKS itself) are refused before any key is looked up.
 */
export const SOCIAL_TOKEN_ALGORITHMS = ['EdDSA', 'ES256', 'RS256'] as const;

const UPSTREAM = 'social identity provider';

/** What the token itself got wrong; any other failure is the provider's key endpoint failing. */
const TOKEN_FAULTS = [
  errors.JWTExpired,
  errors.JWTClaimValidationFailed,
  errors.JWTInvalid,
  errors.JWSInvalid,
  errors.JWSSignatureVerificationFailed,
  errors.JOSEAlgNotAllowed,
  errors.JOSENotSupported,
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
];

/**
 * fidTokens checked with jose against the provider's JWKS (fetched with a timeout, cached by
 * jose, refetched when a token names a key it has not seen). Issuer, audience and algorithms are
 * pinned; `exp` and `sub` are required; `sub` must be the fid, a positive integer.
 */
export class JoseSocialIdentityVerifier implements SocialIdentityVerifier {
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly opts: { jwksUrl: string; issuer: string; audience: string; timeoutMs?: number; clockToleranceSec?: number }) {
    this.keys = createRemoteJWKSet(new URL(opts.jwksUrl), { timeoutDuration: opts.timeoutMs ?? 5000 });
  }

  async verify(token: string): Promise<{ fid: number }> {
    let sub: unknown;
    try {
      const { payload } = await jwtVerify(token, this.keys, {
        issuer: this.opts.issuer,
        audience: this.opts.audience,
        algorithms: [...SOCIAL_TOKEN_ALGORITHMS],
        requiredClaims: ['exp', 'sub'],
        clockTolerance: this.opts.clockToleranceSec ?? 5,
      });
      sub = payload.sub;
    } catch (err) {
      if (TOKEN_FAULTS.some((fault) => err instanceof fault)) throw new SocialTokenInvalidError();
      const name = (err as Error)?.name ?? 'Error';
      throw new UpstreamUnavailableError(UPSTREAM, `${UPSTREAM} keys could not be read (${name})`, err);
    }
    const fid = parseFid(sub);
    if (fid === null) throw new SocialTokenInvalidError('The social identity token does not name a valid fid');
    return { fid };
  }
}
