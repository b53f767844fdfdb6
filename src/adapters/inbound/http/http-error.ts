import { DomainError } from '../../../domain/shared/domain-error.js';

/** An error of the HTTP edge itself (CSRF, deprecated route): still a code, mapped in one place. */
export class HttpEdgeError extends DomainError {}
