import { z } from 'zod';
import { errorBody } from './error.schema.js';

/** Response bodies of sign-up, sign-in, the session and the profile (spec "Accounts", "Profile and settings"). */
const userRef = z.object({ id: z.string(), email: z.string(), name: z.string() });

export const profileResponse = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    plan: z.string().describe('best subscribed plan, else `free` (CONTRACT.md 5)'),
    credits: z.number(),
    twoFactorEnabled: z.boolean(),
    referralCode: z.string(),
    emailVerified: z.boolean(),
    notifications: z.record(z.string(), z.boolean()),
  })
  .meta({ id: 'Profile' });

export const registeredResponse = userRef;
export const signedInResponse = z.object({ user: userRef });
export const sessionResponse = z.object({ user: z.object({ id: z.string(), email: z.string(), role: z.enum(['user', 'admin']) }).nullable() });
export const csrfResponse = z.object({ csrfToken: z.string() });
export const tokenResponse = z.object({ token: z.string().describe('a JWT for `Authorization: Bearer`'), tokenType: z.literal('Bearer'), expiresIn: z.number().describe('seconds') });
export const verifiedEmailResponse = z.object({ success: z.boolean(), message: z.string() });
/** A redirect: no body; `location` says where. */
export const redirectResponse = z.null().describe('redirect; see the `location` header');
/** An OAuth provider without client id and secret: 503 with the provider named. */
export const providerUnavailable = errorBody;

/** GET /api/auth/providers. */
export const signInMethodsResponse = z.object({
  password: z.literal(true),
  codehost: z.boolean(),
  idp: z.boolean(),
  wallet: z.boolean(),
  social: z.boolean(),
  emailDelivery: z.enum(['smtp', 'log', 'none']),
});
