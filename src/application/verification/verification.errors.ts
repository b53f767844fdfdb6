import { DomainError } from '../../domain/shared/domain-error.js';

/** A well-formed proof that does not hold (wrong signer, revoked attestation, name elsewhere). HTTP: 400. */
export class VerificationFailedError extends DomainError {
  constructor(message: string, reason: string) {
    super('VERIFICATION_FAILED', message, { reason });
  }
}
