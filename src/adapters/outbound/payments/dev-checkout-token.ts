import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { systemClock, type Clock } from '../../../application/ports/clock.port.js';
import { isCheckoutKind, type CheckoutKind } from '../../../application/ports/payment-gateway.port.js';
import { DevCheckoutInvalidError } from '../../../domain/billing/billing.errors.js';
import { asUserId, isUuid, type UserId } from '../../../domain/shared/ids.js';

/**
 * The development checkout's only state is this token: the signed intent travels in the
 * completion URL, so any process holding the secret can complete it and nothing is stored.
 *
 * Format: `<payload>.<mac>`, both base64url; payload is the JSON intent below, mac is
 * HMAC-SHA256 over `dev-checkout.v1.<payload>` (the prefix keeps these MACs apart from anything
 * else signed with the same secret).
 */
export interface DevCheckoutIntent {
  /** `cs_dev_...`, random: the event ids derive from it, so completing twice is one effect. */
  readonly sessionId: string;
  readonly kind: CheckoutKind;
  readonly userId: UserId;
  readonly email: string;
  readonly customerId: string;
  readonly priceId: string;
  /** As a processor session would carry it: `plan`/`catalog` or `pack`, plus `kind` and `userId`. */
  readonly metadata: Readonly<Record<string, string>>;
  readonly successUrl: string;
  readonly cancelUrl: string;
  /** Issued at, epoch seconds (the processor's time unit). */
  readonly issuedAt: number;
}

const MAC_LABEL = 'dev-checkout.v1.';
const DEFAULT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Clock skew accepted between the issuing and the completing process. */
const FUTURE_SKEW_MS = 5 * 60 * 1000;

export class DevCheckoutTokens {
  constructor(
    private readonly secret: string,
    private readonly clock: Clock = systemClock,
    private readonly maxAgeMs: number = DEFAULT_MAX_AGE_MS,
  ) {
    if (!secret) throw new Error('Dev checkout secret is empty');
  }

  /** Signs a new intent with a fresh session id and the current time. */
  issue(intent: Omit<DevCheckoutIntent, 'sessionId' | 'issuedAt'>): { token: string; intent: DevCheckoutIntent } {
    const full: DevCheckoutIntent = {
      ...intent,
      sessionId: `cs_dev_${randomBytes(16).toString('base64url')}`,
      issuedAt: Math.floor(this.clock.now().getTime() / 1000),
    };
    const payload = Buffer.from(JSON.stringify(full)).toString('base64url');
    return { token: `${payload}.${this.mac(payload).toString('base64url')}`, intent: full };
  }

  /** @throws DevCheckoutInvalidError when malformed, tampered with, expired, or from the future. */
  verify(token: string): DevCheckoutIntent {
    const [payload, mac, ...rest] = token.split('.');
    if (!payload || !mac || rest.length > 0) throw new DevCheckoutInvalidError();
    const expected = this.mac(payload);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new DevCheckoutInvalidError();
    const intent = parseIntent(payload);
    const ageMs = this.clock.now().getTime() - intent.issuedAt * 1000;
    if (ageMs > this.maxAgeMs || ageMs < -FUTURE_SKEW_MS) throw new DevCheckoutInvalidError();
    return intent;
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(MAC_LABEL + payload).digest();
  }
}

/** Signed by us, so a shape mismatch means a bug or an old format: still only "invalid". */
function parseIntent(payload: string): DevCheckoutIntent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new DevCheckoutInvalidError();
  }
  if (typeof parsed !== 'object' || parsed === null) throw new DevCheckoutInvalidError();
  const v = parsed as Record<string, unknown>;
  const strings = ['sessionId', 'email', 'customerId', 'priceId', 'successUrl', 'cancelUrl'] as const;
  const metadata = v.metadata;
  const metadataOk =
    typeof metadata === 'object' && metadata !== null && Object.values(metadata).every((x) => typeof x === 'string');
  if (
    !strings.every((k) => typeof v[k] === 'string') ||
    !isCheckoutKind(v.kind) ||
    !isUuid(v.userId) ||
    typeof v.issuedAt !== 'number' ||
    !metadataOk
  ) {
    throw new DevCheckoutInvalidError();
  }
  return { ...(v as unknown as DevCheckoutIntent), userId: asUserId(v.userId) };
}
