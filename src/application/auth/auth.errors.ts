import { DomainError } from '../../domain/shared/domain-error.js';

/** No credentials, or a session that is not (or no longer) valid. */
export class AuthRequiredError extends DomainError {
  constructor(message = 'Authentication required') {
    super('AUTH_REQUIRED', message);
  }
}
/** A bearer token or API key that is malformed, forged, expired or revoked. */
export class TokenInvalidError extends DomainError {
  constructor(message = 'Invalid or expired token') {
    super('TOKEN_INVALID', message);
  }
}
export class AdminRequiredError extends DomainError {
  constructor() {
    super('ADMIN_REQUIRED', 'Admin access required');
  }
}
