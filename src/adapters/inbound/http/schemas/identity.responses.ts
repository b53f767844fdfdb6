import { z } from 'zod';

/** Response bodies of wallet sign-in, social identity and token gating. */
export const nonceResponse = z.object({ nonce: z.string() });
export const walletSignedInResponse = z
  .object({ user: z.object({ id: z.string(), email: z.string(), name: z.string() }), url: z.string() })
  .describe('303 to `url`, the session cookie set');

export const socialSignInResponse = z.object({
  success: z.boolean(),
  sessionToken: z.string(),
  address: z.string().nullable(),
  message: z.string(),
  tokenGated: z.boolean(),
  accessLevel: z.string(),
  refreshToken: z.string(),
});
export const socialRefreshResponse = z.object({ success: z.boolean(), sessionToken: z.string(), expiresIn: z.number(), message: z.string(), refreshToken: z.string() });
/** What the POST endpoint takes and answers, and whether it is configured. */
export const socialMetadataResponse = z.looseObject({ endpoint: z.string(), method: z.string(), description: z.string(), configured: z.boolean(), expiresIn: z.number() });

const gate = { address: z.string(), hasAccess: z.boolean(), tokenGated: z.boolean(), minBalance: z.string().describe('base units, decimal integer'), token: z.string(), chain: z.string() };
export const tokenGateCheckResponse = z.object({ fid: z.string(), ...gate, message: z.string(), timestamp: z.string() });
export const tokenGateStatusResponse = z.object({ ...gate, contractAddress: z.string().nullable(), rpcEndpoint: z.string().nullable() });
