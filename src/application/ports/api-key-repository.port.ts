import type { UserId } from '../../domain/shared/ids.js';

export interface ApiKeyRecord {
  id: string;
  name: string;
  preview: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface NewApiKey {
  name: string;
  lookupId: string;
  keyHash: string;
  preview: string;
}

/** The acting user's keys, inside a user unit of work. */
export interface ApiKeyRepository {
  insert(key: NewApiKey): Promise<ApiKeyRecord>;
  list(): Promise<ApiKeyRecord[]>;
  /** null for a key that does not exist or is another user's: both are "not found". */
  get(id: string): Promise<ApiKeyRecord | null>;
  delete(id: string): Promise<boolean>;
}
