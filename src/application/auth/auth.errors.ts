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

/** The caller's API key may not call this model (its `models` list; an agent as `agent/<id>`). HTTP: 403. */
export class KeyModelNotAllowedError extends DomainError {
  constructor(readonly model: string) {
    super('KEY_MODEL_NOT_ALLOWED', `This API key may not call ${JSON.stringify(model.slice(0, 200))}`, { model: model.slice(0, 200) });
  }
}
