/**
 * An agent's verification (spec "Verification record" and the "Verification" states): one
 * current record per agent. POST records a proof (verified false → true; on a verified agent it
 * replaces the record), DELETE clears it (→ false).
 */
export const VERIFICATION_TYPES = ['eas', 'walletprovider', 'ens', 'webauthn'] as const;
export type VerificationType = (typeof VERIFICATION_TYPES)[number];

export interface VerificationRecord {
  verified: boolean;
  verificationType: VerificationType | null;
  attestationUid: string | null;
  verifierAddress: string | null;
  verifiedAt: Date | null;
  metadata: Record<string, unknown> | null;
}

/** What GET answers for an agent never verified, or verified and then cleared. */
export const UNVERIFIED: VerificationRecord = Object.freeze({
  verified: false,
  verificationType: null,
  attestationUid: null,
  verifierAddress: null,
  verifiedAt: null,
  metadata: null,
});

/** A proof that passed its checks, made the agent's current record. */
export function verifiedRecord(p: {
  verificationType: VerificationType;
  attestationUid: string | null;
  verifierAddress: string | null;
  metadata: Record<string, unknown>;
  at: Date;
}): VerificationRecord {
  return { verified: true, verificationType: p.verificationType, attestationUid: p.attestationUid, verifierAddress: p.verifierAddress, verifiedAt: p.at, metadata: p.metadata };
}

/**
 * The exact text a wallet signs (EIP-191 personal message) to verify an agent (CONTRACT.md
 * section 7): the host of APP_URL, port included, as the SIWE domain is.
 */
export const verificationMessage = (agentId: string, appUrl: string): string => `Verify agent ${agentId} on ${new URL(appUrl).host}`;
