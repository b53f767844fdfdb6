import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * CSRF tokens bound to the session: an HMAC of the session id under COOKIE_SECRET. Nothing is
 * stored, every process can check it, and a token from one session is useless in another.
 */
export class CsrfTokens {
  constructor(private readonly secret: string) {}

  forSession(sessionId: string): string {
    return createHmac('sha256', this.secret).update(`csrf:${sessionId}`).digest('base64url');
  }

  /** For a caller without a session: a value to echo, bound to nothing (their requests are exempt). */
  anonymous(): string {
    return randomBytes(32).toString('base64url');
  }

  matches(sessionId: string, presented: string | undefined): boolean {
    if (!presented) return false;
    const expected = Buffer.from(this.forSession(sessionId));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
