import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * CSRF tokens bound to the session: an HMAC of the session id under COOKIE_SECRET. Nothing is
 * stored, every process can check it, and a token from one session is useless in another.
 */
export class CsrfTokens {
  /** The key as a KeyObject, made once: createHmac with a string imports the key on every call. */
  private readonly key: KeyObject;
  /**
   * The expected token's bytes per session id, for sessions seen lately: every state-changing
   * request checks one, and the HMAC is a pure function of the id, so a cached one is never stale.
   */
  private readonly expected = new LRUCache<string, Buffer>({ max: 10_000 });

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  forSession(sessionId: string): string {
    return createHmac('sha256', this.key).update(`csrf:${sessionId}`).digest('base64url');
  }

  /** For a caller without a session: a value to echo, bound to nothing (their requests are exempt). */
  anonymous(): string {
    return randomBytes(32).toString('base64url');
  }

  matches(sessionId: string, presented: string | undefined): boolean {
    if (!presented) return false;
    let expected = this.expected.get(sessionId);
    if (!expected) this.expected.set(sessionId, (expected = Buffer.from(this.forSession(sessionId))));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
