import type { InjectionToken } from 'tsyringe';
import type { OnchainAttestation } from '../../domain/verification/attestation.js';

/**
 * The checks a verification proof goes through outside the database. Each call is bounded by a
 * timeout; an RPC node that fails or times out raises UpstreamUnavailableError (502), never an
 * answer the caller could take for "not verified".
 */

/** Reads EAS attestations on chain (`getAttestation(uid)` on the configured EAS contract). */
export interface AttestationReader {
  /** The contract's record for `uid`: an all-zero record when it knows none, as EAS answers. */
  read(uid: string): Promise<OnchainAttestation>;
  /** The EAS contract read, lowercase: the record's metadata names it. */
  readonly contract: string;
}

/** Resolves an ENS name to its address through a universal resolver. */
export interface EnsResolver {
  /** The name's address, lowercase; null when the name has none. Throws InvalidInputError for a name ENS cannot normalise. */
  resolve(name: string): Promise<string | null>;
}

/** EIP-191 personal-message signatures by externally owned accounts; pure computation, no network. */
export interface SignatureChecker {
  /**
   * The lowercase signer of `message`: `claimed` when given and the signature is its, else null;
   * without `claimed`, the address the signature recovers to (null when it recovers to none).
   */
  signerOf(p: { message: string; signature: string; claimed: string | null }): Promise<string | null>;
}

/** The checkers this process has: a reader or resolver is null when its RPC URL is not configured. */
export interface VerificationChecks {
  attestations: AttestationReader | null;
  ens: EnsResolver | null;
  signatures: SignatureChecker;
}
export const VERIFICATION_CHECKS: InjectionToken<VerificationChecks> = Symbol('VerificationChecks');
