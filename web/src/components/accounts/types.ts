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
export interface ApiKeyItem {
  id: string;
  name: string;
  keyPreview: string;
  createdAt: string;
  lastUsed: string | null;
}

/** POST /api/keys: the only answer that carries the raw key. */
export interface CreatedApiKey {
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
