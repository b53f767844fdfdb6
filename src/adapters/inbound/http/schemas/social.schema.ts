import { z } from 'zod';
import { EVM_ADDRESS_PATTERN } from '../../../../domain/identity/social-identity.js';

/**
 * fidToken is optional here on purpose: the spec answers a missing token with 401, not 400, so the
 * use case decides. A token of the wrong type, or an address of the wrong shape, is still a 400.
 */
export const socialVerifyBody = z
  .object({
    fidToken: z.string().max(8192).optional(),
    address: z.string().regex(EVM_ADDRESS_PATTERN, 'must be 0x followed by 40 hexadecimal digits').optional(),
  })
  // no body at all reaches the handler as null
  .nullish();

export const socialRefreshBody = z.object({ refreshToken: z.string().min(1, 'is required').max(512) });
