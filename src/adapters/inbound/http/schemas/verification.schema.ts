import { z } from 'zod';
import { ENS_NAME_MAX } from '../../../../domain/verification/verification-claim.js';
import { VERIFICATION_TYPES } from '../../../../domain/verification/verification.js';

/**
 * POST /api/agents/:id/verify. Field types here; what each type requires (and the formats) is
 * the domain's parseVerificationClaim, which answers the same 400 VALIDATION_ERROR.
 */
export const verifyBody = z.object({
  verificationType: z.enum(VERIFICATION_TYPES),
  attestationUid: z.string().max(200).optional(),
  walletAddress: z.string().max(200).optional(),
  signature: z.string().max(20_000).optional(),
  ensName: z.string().max(ENS_NAME_MAX).optional(),
});
