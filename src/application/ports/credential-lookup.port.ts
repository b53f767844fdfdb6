import type { InjectionToken } from 'tsyringe';
import type { ApiKeyLimits } from '../../domain/accounts/api-key-limits.js';
import type { UserId } from '../../domain/shared/ids.js';

export interface LiveSession {
  sessionId: string;
  userId: UserId;
  email: string;
  /** users.email_verified_at is set: listed addresses grant their rights only then. */
  emailVerified: boolean;
  expiresAt: Date;
}
export interface LiveApiKey {
  keyId: string;
  userId: UserId;
  email: string;
  emailVerified: boolean;
  keyHash: string;
  /** The limits its owner set (decision 0425). */
  limits: ApiKeyLimits;
}

/**
 * The hot lookups of authentication, run as the system role with named prepared statements,
 * one round trip each, outside any transaction.
 */
export interface CredentialLookup {
  sessionByTokenHash(tokenHash: Buffer): Promise<LiveSession | null>;
  sessionById(id: string): Promise<LiveSession | null>;
  /** A key that has not expired (its `expiresAt` after the database's now), as sessions are read. */
  apiKeyByLookupId(lookupId: string): Promise<LiveApiKey | null>;
  /** As apiKeyByLookupId. */
  apiKeyById(id: string): Promise<LiveApiKey | null>;
  /** Writes lastUsed; the caller throttles it to once a minute per key. */
  touchApiKey(id: string, at: Date): Promise<void>;
}
export const CREDENTIAL_LOOKUP: InjectionToken<CredentialLookup> = Symbol('CredentialLookup');
