import type { VerificationRecord } from '../../../../domain/verification/verification.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** spec "Verification record" (GET /api/agents/:id/verify). */
export const verificationRecordBody = (r: VerificationRecord) => ({
  verified: r.verified,
  verificationType: r.verificationType,
  attestationUid: r.attestationUid,
  verifierAddress: r.verifierAddress,
  verifiedAt: iso(r.verifiedAt),
  metadata: r.metadata,
});

/** POST /api/agents/:id/verify: the spec's five fields. */
export const verifiedBody = (r: VerificationRecord) => ({
  success: true,
  verified: r.verified,
  verificationType: r.verificationType,
  attestationUid: r.attestationUid,
  verifiedAt: iso(r.verifiedAt),
});
