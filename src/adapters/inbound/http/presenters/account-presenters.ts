import type { Profile } from '../../../../application/accounts/get-profile.use-case.js';
import type { ApiKeyRecord } from '../../../../application/ports/api-key-repository.port.js';

/** Response bodies built field by field: nothing reaches a client because a row happened to have it. */
export const profileBody = (p: Profile) => ({
  id: p.id,
  email: p.email,
  name: p.name,
  plan: p.plan,
  credits: p.credits,
  twoFactorEnabled: p.twoFactorEnabled,
  referralCode: p.referralCode,
  emailVerified: p.emailVerified,
  notifications: p.notifications,
});

/** A key's limits, field by field (null: none). */
export const apiKeyLimitsBody = ({ limits: l }: Pick<ApiKeyRecord, 'limits'>) => ({
  dailyUnits: l.dailyUnits,
  models: l.models === null ? null : [...l.models],
  expiresAt: l.expiresAt?.toISOString() ?? null,
  rateLimit: l.rateLimit,
});

export const apiKeyBody = (k: ApiKeyRecord) => ({
  id: k.id,
  name: k.name,
  keyPreview: k.preview,
  createdAt: k.createdAt.toISOString(),
  lastUsed: k.lastUsedAt?.toISOString() ?? null,
  ...apiKeyLimitsBody(k),
  unitsUsed: k.unitsUsed,
});
