/** An EAS attestation as `getAttestation(uid)` returns it; times are unix seconds. */
export interface OnchainAttestation {
  uid: string;
  schema: string;
  time: bigint;
  expirationTime: bigint;
  revocationTime: bigint;
  refUID: string;
  recipient: string;
  attester: string;
  revocable: boolean;
}

const ZERO_BYTES32 = `0x${'0'.repeat(64)}`;
export const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

export type AttestationVerdict = { ok: true } | { ok: false; reason: 'unknown' | 'revoked' | 'expired' | 'recipient_mismatch' };

/**
 * Whether an attestation read on chain verifies an agent: it exists (EAS answers an all-zero
 * record for an unknown uid), is not revoked, has not expired, and, when the caller names a
 * wallet, was made to that wallet (`recipient` equals `walletAddress`, docs/decisions/0077-agent-verification.md).
 */
export function judgeAttestation(a: OnchainAttestation, expected: { uid: string; walletAddress: string | null; now: Date }): AttestationVerdict {
  if (a.uid.toLowerCase() === ZERO_BYTES32 || a.uid.toLowerCase() !== expected.uid.toLowerCase()) return { ok: false, reason: 'unknown' };
  if (a.revocationTime !== 0n) return { ok: false, reason: 'revoked' };
  const nowSeconds = BigInt(Math.floor(expected.now.getTime() / 1000));
  if (a.expirationTime !== 0n && a.expirationTime <= nowSeconds) return { ok: false, reason: 'expired' };
  if (expected.walletAddress !== null && a.recipient.toLowerCase() !== expected.walletAddress.toLowerCase()) return { ok: false, reason: 'recipient_mismatch' };
  return { ok: true };
}

/** Readable facts of an attestation, kept in the record's metadata. */
export const attestationFacts = (a: OnchainAttestation): Record<string, unknown> => ({
  schema: a.schema,
  attester: a.attester.toLowerCase(),
  recipient: a.recipient.toLowerCase(),
  time: Number(a.time),
  expirationTime: Number(a.expirationTime),
  refUID: a.refUID,
  revocable: a.revocable,
});
