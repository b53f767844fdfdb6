import { DomainError } from '../../domain/shared/domain-error.js';

/** The runtime could not be reached, started, or died during the work (CONTRACT.md section 8: 502). */
export class RuntimeUnavailableError extends DomainError {
  constructor(message = 'The agent runtime is unavailable') {
    super('UPSTREAM_UNAVAILABLE', message);
  }
}

/** The runtime answered with a failure of its own work, e.g. the AI call failed (section 7: 502 PROVIDER_ERROR). */
export class RuntimeReplyError extends DomainError {
  constructor(
    readonly failure: string,
    message: string,
  ) {
    super('PROVIDER_ERROR', message, { failure });
  }
}

/** The runtime's bearer is missing or names no instance (401). */
export class GatewayTokenInvalidError extends DomainError {
  constructor(missing: boolean) {
    super(missing ? 'AUTH_REQUIRED' : 'TOKEN_INVALID', missing ? 'A gateway token is required: Authorization: Bearer <token>' : 'Invalid gateway token');
  }
}
