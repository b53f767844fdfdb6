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

/**
 * A row used after this much of its 10 seconds is read again in the background (refreshAhead), so
 * a credential in steady use is not looked up on a request's path every 10 seconds. Late in the
 * 10 seconds, so a credential in steady use is read about as often as before (every 7.5 to 10 s);
 * the 2.5 s left are ample for one indexed read, and a credential used less often than that takes
 * the lookup on its path, as before.
 */
export const REFRESH_AFTER_MS = 7_500;

@injectable()
export class CredentialCache {
  /**
   * Made on first use: an LRUCache allocates its arrays for `max` entries when made (a few megabytes
   * each), which a start need not pay for before anyone presents a credential.
   */
  private made: { sessionsByToken: LRUCache<string, LiveSession>; sessionsById: LRUCache<string, LiveSession>; keysById: LRUCache<string, LiveApiKey>; keysByLookup: LRUCache<string, LiveApiKey> } | undefined;

  /** Counts evictions: a background read that began before one must not put back what it removed. */
  private evictions = 0;
  /** The keys of each cache being read again in the background (one read per key at a time). */
  private readonly refreshing = new WeakMap<object, Set<string>>();

  constructor(@inject(CLOCK) private readonly clock: Clock) {}

  /**
   * Called on a hit: once the row has been cached for REFRESH_AFTER_MS, reads it again without
   * making the caller wait, and replaces it (or drops it, when the read finds none: the credential
   * ended). The row in use is never older than CREDENTIAL_TTL_MS either way: a row whose refresh
   * fails or is late still expires on time, and a revocation evicted here while a read was under
   * way is not undone by that read's answer.
   */
  refreshAhead<V extends object>(cache: LRUCache<string, V>, key: string, read: () => Promise<V | null>): void {
    if (cache.getRemainingTTL(key) > CREDENTIAL_TTL_MS - REFRESH_AFTER_MS) return;
    let keys = this.refreshing.get(cache);
    if (!keys) this.refreshing.set(cache, (keys = new Set()));
    if (keys.has(key)) return;
    keys.add(key);
    const evictions = this.evictions;
    read().then(
      (row) => {
        if (evictions !== this.evictions) return;
        if (row) cache.set(key, row);
        else cache.delete(key);
      },
      () => undefined, // the row in use expires on time; the next use reads it on its path
    ).finally(() => keys.delete(key));
  }

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
    this.evictions++;
    this.sessionsById.delete(sessionId);
    for (const [hash, s] of this.sessionsByToken.entries()) if (s.sessionId === sessionId) this.sessionsByToken.delete(hash);
  }

  evictKey(keyId: string): void {
    this.evictions++;
    this.keysById.delete(keyId);
    for (const [lookup, k] of this.keysByLookup.entries()) if (k.keyId === keyId) this.keysByLookup.delete(lookup);
  }

  /** Every session and key row of a user: their e-mail or its verified mark changed. */
  evictUser(userId: string): void {
    this.evictions++;
    evictOwnedBy(this.sessionsByToken, userId);
    evictOwnedBy(this.sessionsById, userId);
    evictOwnedBy(this.keysById, userId);
    evictOwnedBy(this.keysByLookup, userId);
  }
}

function evictOwnedBy<V extends { userId: string }>(cache: LRUCache<string, V>, userId: string): void {
  for (const [k, row] of cache.entries()) if (row.userId === userId) cache.delete(k);
}
