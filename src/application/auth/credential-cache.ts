import { LRUCache } from 'lru-cache';
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import type { LiveApiKey, LiveSession } from '../ports/credential-lookup.port.js';

/**
 * In-process memory of credential lookups (CONTRACT.md section 4): a session or key row is
 * trusted for at most 10 seconds, so a revocation in another process takes effect within 10 s;
 * the process that revokes evicts at once. Bounded, so a flood of distinct tokens cannot grow it.
 */
export const CREDENTIAL_TTL_MS = 10_000;

@injectable()
export class CredentialCache {
  /** session token hash (hex) → session */
  readonly sessionsByToken: LRUCache<string, LiveSession>;
  /** session id → session (a JWT's sid check) */
  readonly sessionsById: LRUCache<string, LiveSession>;
  /** API key id → key row */
  readonly keysById: LRUCache<string, LiveApiKey>;
  /** API key lookup id → key row */
  readonly keysByLookup: LRUCache<string, LiveApiKey>;

  constructor(@inject(CLOCK) clock: Clock) {
    // Expiry follows the injected clock, so the 10-second promise is testable without waiting.
    const options = { max: 50_000, ttl: CREDENTIAL_TTL_MS, ttlResolution: 0, perf: { now: () => clock.now().getTime() } };
    this.sessionsByToken = new LRUCache(options);
    this.sessionsById = new LRUCache(options);
    this.keysById = new LRUCache(options);
    this.keysByLookup = new LRUCache(options);
  }

  evictSession(sessionId: string): void {
    this.sessionsById.delete(sessionId);
    for (const [hash, s] of this.sessionsByToken.entries()) if (s.sessionId === sessionId) this.sessionsByToken.delete(hash);
  }

  evictKey(keyId: string): void {
    this.keysById.delete(keyId);
    for (const [lookup, k] of this.keysByLookup.entries()) if (k.keyId === keyId) this.keysByLookup.delete(lookup);
  }

  /** Every session and key row of a user: their e-mail or its verified mark changed. */
  evictUser(userId: string): void {
    evictOwnedBy(this.sessionsByToken, userId);
    evictOwnedBy(this.sessionsById, userId);
    evictOwnedBy(this.keysById, userId);
    evictOwnedBy(this.keysByLookup, userId);
  }
}

function evictOwnedBy<V extends { userId: string }>(cache: LRUCache<string, V>, userId: string): void {
  for (const [k, row] of cache.entries()) if (row.userId === userId) cache.delete(k);
}
