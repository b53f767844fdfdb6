import type { ByokProvider } from '../../domain/billing/byok.js';
import type { SealedSecret } from './secret-box.port.js';

/** A user's provider key as stored: sealed, never in clear. */
export interface StoredByokKey {
  readonly provider: ByokProvider;
  readonly sealed: SealedSecret;
}

/** The acting user's BYOK keys (user unit of work; RLS scopes them). */
export interface ByokKeyRepository {
  /** Stores or replaces the key for its provider. */
  put(key: StoredByokKey): Promise<void>;
  list(): Promise<StoredByokKey[]>;
  /** Deletes one provider's key, or all of them; returns how many were deleted. */
  delete(provider?: ByokProvider): Promise<number>;
}
