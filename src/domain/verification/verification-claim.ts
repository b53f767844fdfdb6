import { DomainError } from '../shared/domain-error.js';
import { VERIFICATION_TYPES, type VerificationType } from './verification.js';

/** A POST body that names no type we know, or lacks what its type requires. HTTP: 400. */
export class InvalidVerificationClaim extends DomainError {
  constructor(message: string, field: string) {
    super('VALIDATION_ERROR', message, { details: [{ path: `body/${field}`, message }] });
  }
}

/** What a POST claims, as the client sent it (already typed as strings by the edge). */
export interface VerificationInput {
  verificationType: string;
  attestationUid?: string | undefined;
  walletAddress?: string | undefined;
  signature?: string | undefined;
  ensName?: string | undefined;
}

/** An EAS uid: bytes32, 0x and 64 hex digits. */
const UID = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Hex bytes; whether they make a valid signature is the signature checker's question. */
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})+$/;
/** Dot-separated labels, no spaces: normalisation (ENSIP-15) is the resolver's job. */
const ENS_NAME = /^[^\s.]+(?:\.[^\s.]+)+$/;
export const ENS_NAME_MAX = 255;

/** Lowercase: the one spelling stored and compared (checksums are a display matter). */
export const normalizeAddress = (a: string): string => a.toLowerCase();

/**
 * A checked claim. `eas` needs an attestation uid; the three signature types need a signature
 * of `verificationMessage` (CONTRACT.md section 7 "wallet-signature verification"); `ens` also
 * needs the name whose address must be the signer (docs/decisions/0077-agent-verification.md: `ensName`).
 */
export type VerificationClaim =
  | { verificationType: 'eas'; attestationUid: string; walletAddress: string | null }
  | { verificationType: 'walletprovider' | 'webauthn'; signature: string; walletAddress: string | null }
  | { verificationType: 'ens'; signature: string; walletAddress: string | null; ensName: string };

export function parseVerificationClaim(input: VerificationInput): VerificationClaim {
  const type = input.verificationType;
  if (!(VERIFICATION_TYPES as readonly string[]).includes(type)) {
    throw new InvalidVerificationClaim(`verificationType must be one of ${VERIFICATION_TYPES.join(', ')}`, 'verificationType');
  }
  const verificationType = type as VerificationType;
  if (input.walletAddress !== undefined && !ADDRESS.test(input.walletAddress)) {
    throw new InvalidVerificationClaim('walletAddress must be 0x and 40 hex digits', 'walletAddress');
  }
  const walletAddress = input.walletAddress === undefined ? null : normalizeAddress(input.walletAddress);
  if (verificationType === 'eas') {
    if (input.attestationUid === undefined) throw new InvalidVerificationClaim('attestationUid is required for eas', 'attestationUid');
    if (!UID.test(input.attestationUid)) throw new InvalidVerificationClaim('attestationUid must be 0x and 64 hex digits', 'attestationUid');
    return { verificationType, attestationUid: input.attestationUid.toLowerCase(), walletAddress };
  }
  if (input.signature === undefined) throw new InvalidVerificationClaim(`signature is required for ${verificationType}`, 'signature');
  if (!HEX_BYTES.test(input.signature)) throw new InvalidVerificationClaim('signature must be 0x-prefixed hex bytes', 'signature');
  // A WebAuthn assertion alone is no EIP-191 signature and names no key we hold: only a wallet-backed one can be checked here.
  if (verificationType === 'webauthn' && walletAddress === null) {
    throw new InvalidVerificationClaim('webauthn needs walletAddress: only a wallet-backed webauthn signature can be checked', 'walletAddress');
  }
  if (verificationType === 'ens') {
    const name = input.ensName;
    if (name === undefined) throw new InvalidVerificationClaim('ensName is required for ens', 'ensName');
    if (name.length > ENS_NAME_MAX || !ENS_NAME.test(name)) throw new InvalidVerificationClaim('ensName must be a dotted ENS name', 'ensName');
    return { verificationType, signature: input.signature, walletAddress, ensName: name };
  }
  return { verificationType, signature: input.signature, walletAddress };
}
