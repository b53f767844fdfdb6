import { DomainError } from '../../domain/shared/domain-error.js';

/** No fidToken in the body (spec: 401 missing token). */
export class SocialTokenMissingError extends DomainError {
  constructor() {
    super('SOCIAL_TOKEN_MISSING', 'fidToken is required');
  }
}

/** A fidToken that is malformed, forged, expired, for another issuer or audience, or signed by an unknown key. */
export class SocialTokenInvalidError extends DomainError {
  constructor(message = 'Invalid or expired social identity token') {
    super('SOCIAL_TOKEN_INVALID', message);
  }
}

/** SOCIAL_JWKS_URL, SOCIAL_ISSUER or SOCIAL_AUDIENCE is not set. HTTP: 503. */
export class SocialIdentityNotConfiguredError extends DomainError {
  constructor() {
    super('SOCIAL_NOT_CONFIGURED', 'Social identity sign-in is not configured');
  }
}

/** The address holds less of the gating token than required (spec: 403 with `required` and `minBalance`). */
export class InsufficientTokenBalanceError extends DomainError {
  constructor(details: { required: string; minBalance: string }) {
    super('INSUFFICIENT_TOKEN_BALANCE', 'Insufficient token balance', details);
  }
}

/** A refresh token that is unknown, expired, already used, or whose sign-in has ended. */
export class RefreshTokenInvalidError extends DomainError {
  constructor(message = 'Invalid or expired refresh token') {
    super('REFRESH_TOKEN_INVALID', message);
  }
}

/** Another sign-in linked the same fid first; the unit of work is retried and finds that link. */
export class FidAlreadyLinkedError extends DomainError {
  constructor() {
    super('FID_ALREADY_LINKED', 'This social identity is already linked');
  }
}
