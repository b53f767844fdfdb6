import type { InjectionToken } from 'tsyringe';
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
}

/**
 * The hot lookups of authentication, run as the system role with named prepared statements,
 * one round trip each, outside any transaction.
 */
export interface CredentialLookup {
  sessionByTokenHash(tokenHash: Buffer): Promise<LiveSession | null>;
  sessionById(id: string): Promise<LiveSession | null>;
  apiKeyByLookupId(lookupId: string): Promise<LiveApiKey | null>;
  apiKeyById(id: string): Promise<LiveApiKey | null>;
  /** Writes lastUsed; the caller throttles it to once a minute per key. */
  touchApiKey(id: string, at: Date): Promise<void>;
}
export const CREDENTIAL_LOOKUP: InjectionToken<CredentialLookup> = Symbol('CredentialLookup');
