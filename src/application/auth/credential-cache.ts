import { LRUCache } from 'lru-cache';
import type { LiveApiKey, LiveSession } from '../ports/credential-lookup.port.js';

/**
 * In-process memory of credential lookups (CONTRACT.md section 4): a session or key row is
 * trusted for at most 10 seconds, so a revocation in another process takes effect within 10 s;
 * the process that revokes evicts at once. Bounded, so a flood of distinct tokens cannot grow it.
 */
export const CREDENTIAL_TTL_MS = 10_000;

export class CredentialCache {
  /** session token hash (hex) → session */
  readonly sessionsByToken = new LRUCache<string, LiveSession>({ max: 50_000, ttl: CREDENTIAL_TTL_MS });
  /** session id → session (a JWT's sid check) */
  readonly sessionsById = new LRUCache<string, LiveSession>({ max: 50_000, ttl: CREDENTIAL_TTL_MS });
  /** API key id → key row */
  readonly keysById = new LRUCache<string, LiveApiKey>({ max: 50_000, ttl: CREDENTIAL_TTL_MS });
  /** API key lookup id → key row */
  readonly keysByLookup = new LRUCache<string, LiveApiKey>({ max: 50_000, ttl: CREDENTIAL_TTL_MS });

  evictSession(sessionId: string): void {
    this.sessionsById.delete(sessionId);
    for (const [hash, s] of this.sessionsByToken.entries()) if (s.sessionId === sessionId) this.sessionsByToken.delete(hash);
  }

  evictKey(keyId: string): void {
    this.keysById.delete(keyId);
    for (const [lookup, k] of this.keysByLookup.entries()) if (k.keyId === keyId) this.keysByLookup.delete(lookup);
  }
}
