import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DevCheckoutCompleter, DevPaymentGateway } from '../../../src/adapters/outbound/payments/dev-payment-gateway.js';
import { mapStripeEvent } from '../../../src/adapters/outbound/payments/stripe-event-mapper.js';
import type { CheckoutInput } from '../../../src/application/ports/payment-gateway.port.js';
import { DomainError } from '../../../src/domain/shared/domain-error.js';
import { asUserId } from '../../../src/domain/shared/ids.js';
import { checkoutCompletedEvent, checkoutSession } from '../../support/payments/stripe-events.js';

const SECRET = 'dev-secret-for-tests';
const at = (iso: string) => ({ now: () => new Date(iso) });
const issuedClock = at('2026-05-01T10:00:00Z');

const input = (over: Partial<CheckoutInput> = {}): CheckoutInput => ({
  kind: 'subscription',
  priceId: 'price_solo',
  user: { id: asUserId(randomUUID()), email: 'dev@example.com' },
  successUrl: 'http://localhost:3000/onboarding',
  cancelUrl: 'http://localhost:3000/pricing',
  metadata: { plan: 'solo' },
  ...over,
});
const tokenOf = (url: string) => new URL(url).searchParams.get('session')!;
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof DomainError ? e.code : `not a DomainError: ${String(e)}`;
  }
  return 'no error';
};

describe('dev payment gateway', () => {
  const gateway = new DevPaymentGateway({ appUrl: 'http://localhost:3000/', secret: SECRET, clock: issuedClock });
  const completer = new DevCheckoutCompleter({ secret: SECRET, clock: at('2026-05-01T10:05:00Z') });

  it('when a plan checkout is completed, then it yields the events a real checkout would', async () => {
    const i = input();
    const out = await gateway.createCheckout(i);
    expect(out.url.startsWith('http://localhost:3000/api/psp/dev/complete?session=')).toBe(true);
    expect(out.sessionId).toMatch(/^cs_dev_/);
    expect(out.customerId).toMatch(/^cus_dev_/);

    const { intent, events } = completer.complete(tokenOf(out.url));
    expect(intent).toMatchObject({ sessionId: out.sessionId, successUrl: i.successUrl, cancelUrl: i.cancelUrl, priceId: 'price_solo' });
    const createdAt = new Date('2026-05-01T10:00:00Z');
    const suffix = out.sessionId.slice('cs_dev_'.length);
    expect(events).toEqual([
      {
        id: `evt_dev_${suffix}`,
        type: 'checkout.completed',
        processorType: 'checkout.session.completed',
        createdAt,
        sessionId: out.sessionId,
        userId: i.user.id,
        email: 'dev@example.com',
        customerId: out.customerId,
        subscriptionId: `sub_dev_${suffix}`,
        plan: { catalog: 'checkout', plan: 'solo' },
        kind: 'subscription',
        paid: true,
      },
      {
        id: `evt_dev_${suffix}_sub`,
        type: 'subscription.changed',
        processorType: 'customer.subscription.created',
        createdAt,
        subscriptionId: `sub_dev_${suffix}`,
        customerId: out.customerId,
        status: 'active',
        plan: { catalog: 'checkout', plan: 'solo' },
        kind: 'subscription',
        userId: i.user.id,
        currentPeriodEnd: new Date(createdAt.getTime() + 30 * 86_400_000),
        deleted: false,
      },
    ]);
  });

  it('when completed twice, then the events are identical (same ids for the ledger to dedupe)', async () => {
    const token = tokenOf((await gateway.createCheckout(input())).url);
    expect(completer.complete(token).events).toEqual(completer.complete(token).events);
  });

  it('when the checkout event is compared to a real Stripe one for the same session, then they match', async () => {
    const i = input({ user: { id: asUserId(randomUUID()), email: 'dev@example.com', customerId: 'cus_known' } });
    const out = await gateway.createCheckout(i);
    expect(out.customerId).toBe('cus_known');
    const [dev] = completer.complete(tokenOf(out.url)).events;
    const suffix = out.sessionId.slice('cs_dev_'.length);
    const real = mapStripeEvent(
      checkoutCompletedEvent(
        checkoutSession({
          id: out.sessionId,
          client_reference_id: i.user.id,
          customer: 'cus_known',
          subscription: `sub_dev_${suffix}`,
          customer_details: { email: 'dev@example.com' },
          metadata: { plan: 'solo', kind: 'subscription', userId: i.user.id },
        }),
        { id: `evt_dev_${suffix}`, created: Date.parse('2026-05-01T10:00:00Z') / 1000 },
      ),
    );
    expect(dev).toEqual(real);
  });

  it('when a credit pack is completed, then one checkout event carries the pack and no subscription', async () => {
    const out = await gateway.createCheckout(input({ kind: 'credits', priceId: 'price_credits_50', metadata: { pack: '50' } }));
    const { events } = completer.complete(tokenOf(out.url));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'checkout.completed', pack: '50', kind: 'credits', paid: true });
    expect(events[0]).not.toHaveProperty('subscriptionId');
  });

  it('when one gateway call is completed, then one payment-mode checkout event names the grant and plugin', async () => {
    const grantId = randomUUID();
    const out = await gateway.createCheckout(input({ kind: 'one-call', priceId: 'price_dev_gateway_agent', metadata: { plugin: 'agent', grantId } }));
    const { events } = completer.complete(tokenOf(out.url));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'checkout.completed', sessionId: out.sessionId, kind: 'one-call', oneCall: { grantId, plugin: 'agent' }, paid: true });
    expect(events[0]).not.toHaveProperty('subscriptionId');
  });

  it('when the same user checks out twice without a stored customer, then the customer id is stable', async () => {
    const user = { id: asUserId(randomUUID()), email: 'dev@example.com' };
    const a = await gateway.createCheckout(input({ user }));
    const b = await gateway.createCheckout(input({ user }));
    expect(a.customerId).toBe(b.customerId);
    expect(a.sessionId).not.toBe(b.sessionId);
  });

  it('when the token is tampered with, then DEV_CHECKOUT_INVALID', async () => {
    const token = tokenOf((await gateway.createCheckout(input())).url);
    const [payload, mac] = token.split('.') as [string, string];
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    forged.metadata = { plan: 'network', kind: 'subscription' };
    const forgedPayload = Buffer.from(JSON.stringify(forged)).toString('base64url');
    expect(codeOf(() => completer.complete(`${forgedPayload}.${mac}`))).toBe('DEV_CHECKOUT_INVALID');
    const flipped = (mac[0] === 'A' ? 'B' : 'A') + mac.slice(1);
    expect(codeOf(() => completer.complete(`${payload}.${flipped}`))).toBe('DEV_CHECKOUT_INVALID');
    for (const bad of ['', 'abc', `${payload}`, `${payload}.${mac}.x`, '..', 'e30.AAAA']) {
      expect(codeOf(() => completer.complete(bad))).toBe('DEV_CHECKOUT_INVALID');
    }
  });

  it('when signed with another secret, then DEV_CHECKOUT_INVALID', async () => {
    const other = new DevPaymentGateway({ appUrl: 'http://localhost:3000', secret: 'another', clock: issuedClock });
    const token = tokenOf((await other.createCheckout(input())).url);
    expect(codeOf(() => completer.complete(token))).toBe('DEV_CHECKOUT_INVALID');
  });

  it('when older than 24 hours, then DEV_CHECKOUT_INVALID; just under, still valid', async () => {
    const token = tokenOf((await gateway.createCheckout(input())).url);
    const late = new DevCheckoutCompleter({ secret: SECRET, clock: at('2026-05-02T10:00:01Z') });
    const inTime = new DevCheckoutCompleter({ secret: SECRET, clock: at('2026-05-02T09:59:59Z') });
    expect(codeOf(() => late.complete(token))).toBe('DEV_CHECKOUT_INVALID');
    expect(inTime.complete(token).events).toHaveLength(2);
  });

  it('when issued in the future beyond clock skew, then DEV_CHECKOUT_INVALID', async () => {
    const token = tokenOf((await gateway.createCheckout(input())).url);
    const past = new DevCheckoutCompleter({ secret: SECRET, clock: at('2026-05-01T09:50:00Z') });
    expect(codeOf(() => past.complete(token))).toBe('DEV_CHECKOUT_INVALID');
  });
});
