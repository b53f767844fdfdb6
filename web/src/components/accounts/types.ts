/** GET /api/settings (spec "User profile", CONTRACT.md 7: also `referralCode`, `emailVerified`, `notifications`). */
export interface Profile {
  id: string;
  email: string;
  name: string;
  plan: string;
  credits: number;
  twoFactorEnabled: boolean;
  referralCode: string;
  emailVerified: boolean;
  notifications: Record<string, boolean>;
}

/** GET /api/keys items: never the raw key. */
/** The limits a key's owner set on it; null: no such limit. */
export interface ApiKeyLimits {
  dailyUnits: number | null;
  models: string[] | null;
  expiresAt: string | null;
  rateLimit: number | null;
}

export interface ApiKeyItem extends ApiKeyLimits {
  id: string;
  name: string;
  keyPreview: string;
  createdAt: string;
  lastUsed: string | null;
  /** Units spent today (UTC), calls in flight included. */
  unitsUsed: number;
}

/** POST /api/keys: the only answer that carries the raw key. */
export interface CreatedApiKey extends ApiKeyLimits {
  id: string;
  name: string;
  key: string;
  keyPreview: string;
  createdAt: string;
}

export interface Heartbeat {
  frequency: string;
  enabled: boolean;
  lastHeartbeat: string | null;
  nextHeartbeat: string | null;
}
