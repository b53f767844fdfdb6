import { z } from 'zod';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  REFERRAL_CODE_PATTERN,
  RESET_PASSWORD_MIN_LENGTH,
} from '../../../../domain/accounts/account-rules.js';
import { API_KEY_LIMIT_BOUNDS } from '../../../../domain/accounts/api-key-limits.js';

const email = z.string().trim().max(254).email('must be a valid e-mail address');
const password = (min: number) => z.string().min(min, `must be at least ${min} characters`).max(PASSWORD_MAX_LENGTH);
const token = z.string().min(16).max(512);

export const registerBody = z.object({
  email,
  password: password(PASSWORD_MIN_LENGTH),
  name: z.string().trim().max(100).optional(),
  referralCode: z.string().regex(REFERRAL_CODE_PATTERN, 'letters, digits and hyphens, at most 20').optional(),
  turnstileToken: z.string().max(4096).optional(),
});

export const credentialsBody = z.object({ email: z.string().max(254), password: z.string().max(PASSWORD_MAX_LENGTH) });
export const forgotPasswordBody = z.object({ email, turnstileToken: z.string().max(4096).optional() });
export const resetPasswordBody = z.object({ token, password: password(RESET_PASSWORD_MIN_LENGTH) });
export const verifyEmailQuery = z.object({ token });

export const updateSettingsBody = z
  .object({ name: z.string().trim().min(1).max(100).optional(), email: email.optional() })
  .strict();
export const patchSettingsBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    notifications: z.record(z.string().min(1).max(64), z.boolean()).refine((o) => Object.keys(o).length <= 50, 'at most 50 preferences').optional(),
  })
  .strict();
export const changePasswordBody = z.object({ currentPassword: z.string().min(1).max(PASSWORD_MAX_LENGTH), newPassword: password(PASSWORD_MIN_LENGTH) });

/** A key's limits (decision 0425): each optional; null is no such limit (on PATCH: clears it). */
const keyLimitFields = {
  dailyUnits: z
    .number()
    .int('must be a whole number of units')
    .min(1, 'must be at least 1')
    .max(API_KEY_LIMIT_BOUNDS.dailyUnits, `must be at most ${API_KEY_LIMIT_BOUNDS.dailyUnits}`)
    .nullable()
    .optional()
    .describe('units the key may spend a UTC day, inside the owner’s own'),
  models: z
    .array(z.string().min(1).max(200))
    .min(1, 'must name at least one model (null: any)')
    .max(API_KEY_LIMIT_BOUNDS.models, `at most ${API_KEY_LIMIT_BOUNDS.models} models`)
    .nullable()
    .optional()
    .describe('model ids the key may call; an agent as agent/<agentId>'),
  expiresAt: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
    .nullable()
    .optional()
    .describe('from then on the key is refused (401); must be in the future'),
  rateLimit: z
    .number()
    .int('must be a whole number of requests')
    .min(1, 'must be at least 1')
    .max(API_KEY_LIMIT_BOUNDS.rateLimit, `must be at most ${API_KEY_LIMIT_BOUNDS.rateLimit}`)
    .nullable()
    .optional()
    .describe('requests a minute the key may make'),
};
export const createKeyBody = z.object({ name: z.string().trim().min(1).max(64), ...keyLimitFields });
export const patchKeyBody = z.object(keyLimitFields).strict();
export const keyParams = z.object({ id: z.string().uuid('not a key id') });
