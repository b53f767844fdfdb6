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
  /**
   * Made on first use: an LRUCache allocates its arrays for `max` entries when made (a few megabytes
   * each), which a start need not pay for before anyone presents a credential.
   */
  private made: { sessionsByToken: LRUCache<string, LiveSession>; sessionsById: LRUCache<string, LiveSession>; keysById: LRUCache<string, LiveApiKey>; keysByLookup: LRUCache<string, LiveApiKey> } | undefined;

  constructor(@inject(CLOCK) private readonly clock: Clock) {}

  /** session token hash (hex) → session */
  get sessionsByToken(): LRUCache<string, LiveSession> {
    return this.caches().sessionsByToken;
  }

  /** session id → session (a JWT's sid check) */
  get sessionsById(): LRUCache<string, LiveSession> {
    return this.caches().sessionsById;
  }

  /** API key id → key row */
  get keysById(): LRUCache<string, LiveApiKey> {
    return this.caches().keysById;
  }

  /** API key lookup id → key row */
  get keysByLookup(): LRUCache<string, LiveApiKey> {
    return this.caches().keysByLookup;
  }

  private caches() {
    if (!this.made) {
      // Expiry follows the injected clock, so the 10-second promise is testable without waiting.
      const options = { max: 50_000, ttl: CREDENTIAL_TTL_MS, ttlResolution: 0, perf: { now: () => this.clock.now().getTime() } };
      this.made = { sessionsByToken: new LRUCache(options), sessionsById: new LRUCache(options), keysById: new LRUCache(options), keysByLookup: new LRUCache(options) };
    }
    return this.made;
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
