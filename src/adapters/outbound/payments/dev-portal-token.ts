import { createHmac, timingSafeEqual } from 'node:crypto';
import { systemClock, type Clock } from '../../../application/ports/clock.port.js';
import { DevCheckoutInvalidError } from '../../../domain/billing/billing.errors.js';
import { asUserId, isUuid, type UserId } from '../../../domain/shared/ids.js';

/**
 * The development billing portal's session: like the development checkout's token, signed and
 * stateless (`<payload>.<mac>`, base64url, HMAC-SHA256 over `dev-portal.v1.<payload>`, a label of
 * its own so a checkout token is never a portal token). It vouches for one user and customer.
 */
export interface DevPortalSession {
  readonly userId: UserId;
  readonly customerId: string;
  readonly returnUrl: string;
  /** Epoch seconds. */
  readonly issuedAt: number;
}

const MAC_LABEL = 'dev-portal.v1.';
/** A portal session lasts an hour, like Stripe's. */
const MAX_AGE_MS = 60 * 60 * 1000;

export class DevPortalTokens {
  constructor(
    private readonly secret: string,
    private readonly clock: Clock = systemClock,
  ) {
    if (!secret) throw new Error('Dev portal secret is empty');
  }

  issue(session: Omit<DevPortalSession, 'issuedAt'>): string {
    const full: DevPortalSession = { ...session, issuedAt: Math.floor(this.clock.now().getTime() / 1000) };
    const payload = Buffer.from(JSON.stringify(full)).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** @throws DevCheckoutInvalidError when malformed, tampered with or expired. */
  verify(token: string): DevPortalSession {
    const [payload, mac, ...rest] = token.split('.');
    if (!payload || !mac || rest.length > 0) throw new DevCheckoutInvalidError();
    const expected = this.mac(payload);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new DevCheckoutInvalidError();
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      throw new DevCheckoutInvalidError();
    }
    const { userId, customerId, returnUrl, issuedAt } = parsed;
    if (!isUuid(userId) || typeof customerId !== 'string' || typeof returnUrl !== 'string' || typeof issuedAt !== 'number') throw new DevCheckoutInvalidError();
    const ageMs = this.clock.now().getTime() - issuedAt * 1000;
    if (ageMs > MAX_AGE_MS || ageMs < -5 * 60 * 1000) throw new DevCheckoutInvalidError();
    return { userId: asUserId(userId), customerId, returnUrl, issuedAt };
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(MAC_LABEL + payload).digest();
  }
}
