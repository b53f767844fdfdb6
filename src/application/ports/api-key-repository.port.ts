import type { ApiKeyLimits } from '../../domain/accounts/api-key-limits.js';

export interface ApiKeyRecord {
  id: string;
  name: string;
  preview: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  limits: ApiKeyLimits;
  /** Units the key has spent (or holds for calls in flight) on the UTC day asked about. */
  unitsUsed: number;
}

export interface NewApiKey {
  name: string;
  lookupId: string;
  keyHash: string;
  preview: string;
  limits: ApiKeyLimits;
}

/** The acting user's keys, inside a user unit of work. `day` (YYYY-MM-DD, UTC) is the day whose `unitsUsed` is read. */
export interface ApiKeyRepository {
  insert(key: NewApiKey): Promise<ApiKeyRecord>;
  list(day: string): Promise<ApiKeyRecord[]>;
  /** null for a key that does not exist or is another user's: both are "not found". */
  get(id: string, day: string): Promise<ApiKeyRecord | null>;
  /** Sets the limits named in `change` (null clears one), the others kept; null as `get`, and nothing changed. */
  update(id: string, change: Partial<ApiKeyLimits>, day: string): Promise<ApiKeyRecord | null>;
  delete(id: string): Promise<boolean>;
}
