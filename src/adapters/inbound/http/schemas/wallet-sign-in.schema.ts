import { z } from 'zod';

/** The spec's address: 0x and 40 hex digits (42 characters), any case. */
export const evmAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x followed by 40 hex digits')
  .transform((a) => a as `0x${string}`);

export const walletCallbackBody = z.object({
  // an EIP-4361 message is a few hundred characters; statements and resources make it longer
  message: z.string().min(1).max(16_384),
  // an ERC-6492 signature carries the factory's calldata: longer than 65 bytes, still bounded
  signature: z
    .string()
    .max(65_536)
    .regex(/^0x(?:[0-9a-fA-F]{2})+$/, 'must be 0x-prefixed hex')
    .transform((s) => s as `0x${string}`),
  callbackUrl: z.string().max(2048).optional(),
});

export const tokenGateBody = z.object({
  fid: z.union([z.string().trim().min(1).max(64), z.number().int().nonnegative().transform(String)]),
  address: evmAddress,
});
export const tokenGateQuery = z.object({ address: evmAddress });
