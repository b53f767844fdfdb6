import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { StripeWebhookVerifier } from '../../../src/adapters/outbound/payments/stripe-webhook-verifier.js';
import { DomainError } from '../../../src/domain/shared/domain-error.js';
import {
  checkoutCompletedEvent,
  checkoutSession,
  creditPackSession,
  invoice,
  invoiceEvent,
  signedStripeEvent,
  stripeEvent,
  subscription,
  subscriptionEvent,
} from '../../support/payments/stripe-events.js';

const SECRET = 'whsec_test_secret';
const verifier = new StripeWebhookVerifier({
  secret: SECRET,
  plansByPriceId: { price_pro: { catalog: 'billing', plan: 'pro' } },
  storagePriceIds: ['price_storage'],
});
const verifySigned = (event: object) => {
  const { body, header } = signedStripeEvent(SECRET, event);
  return verifier.verify(Buffer.from(body), header);
};
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof DomainError ? e.code : `not a DomainError: ${String(e)}`;
  }
  return 'no error';
};

describe('Stripe webhook verifier: signatures', () => {
  const event = checkoutCompletedEvent();

  it('when the signature is valid, then the event is returned (Buffer or string body)', () => {
    const { body, header } = signedStripeEvent(SECRET, event);
    expect(verifier.verify(Buffer.from(body), header).id).toBe(event.id);
    expect(verifier.verify(body, header).id).toBe(event.id);
  });

  it('when signed with another secret, then WEBHOOK_SIGNATURE_INVALID', () => {
    const { body, header } = signedStripeEvent('whsec_other', event);
    expect(codeOf(() => verifier.verify(body, header))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it('when the timestamp is older than 300 s, then WEBHOOK_SIGNATURE_INVALID', () => {
    const { body, header } = signedStripeEvent(SECRET, event, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(codeOf(() => verifier.verify(body, header))).toBe('WEBHOOK_SIGNATURE_INVALID');
    const recent = signedStripeEvent(SECRET, event, { timestamp: Math.floor(Date.now() / 1000) - 280 });
    expect(verifier.verify(recent.body, recent.header).id).toBe(event.id);
  });

  it('when the body was altered after signing, then WEBHOOK_SIGNATURE_INVALID', () => {
    const { body, header } = signedStripeEvent(SECRET, event);
    const tampered = body.replace('"paid"', '"unpaid"');
    expect(tampered).not.toBe(body);
    expect(codeOf(() => verifier.verify(tampered, header))).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(codeOf(() => verifier.verify(`${body} `, header))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it('when the header is missing, empty or garbage, then WEBHOOK_SIGNATURE_INVALID', () => {
    const { body } = signedStripeEvent(SECRET, event);
    expect(codeOf(() => verifier.verify(body, undefined))).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(codeOf(() => verifier.verify(body, ''))).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(codeOf(() => verifier.verify(body, 'nonsense'))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it('when a validly signed body is not JSON, then WEBHOOK_PAYLOAD_INVALID', () => {
    const raw = 'not json';
    const header = Stripe.webhooks.generateTestHeaderString({ payload: raw, secret: SECRET });
    expect(codeOf(() => verifier.verify(raw, header))).toBe('WEBHOOK_PAYLOAD_INVALID');
  });

  it('when constructed with an empty secret, then it refuses to start', () => {
    expect(() => new StripeWebhookVerifier({ secret: ' ' })).toThrow();
  });
});

describe('Stripe webhook verifier: mapping', () => {
  it('when a plan checkout completes, then user, email, customer, subscription and plan are read', () => {
    const userId = randomUUID();
    const session = checkoutSession({ client_reference_id: userId, customer: 'cus_1', subscription: 'sub_1', metadata: { plan: 'collective', kind: 'subscription' } });
    const event = checkoutCompletedEvent(session, { created: 1_800_000_000 });
    expect(verifySigned(event)).toEqual({
      id: event.id,
      type: 'checkout.completed',
      processorType: 'checkout.session.completed',
      createdAt: new Date(1_800_000_000_000),
      sessionId: session.id,
      userId,
      email: 'buyer@example.com',
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
      plan: { catalog: 'checkout', plan: 'collective' },
      kind: 'subscription',
      paid: true,
    });
  });

  it('when a credit pack checkout completes, then the pack is read and kind is credits', () => {
    const session = creditPackSession('500', { customer_details: null, customer_email: 'legacy@example.com', client_reference_id: null });
    const mapped = verifySigned(checkoutCompletedEvent(session));
    expect(mapped).toMatchObject({ type: 'checkout.completed', pack: '500', kind: 'credits', email: 'legacy@example.com', paid: true });
    expect(mapped).not.toHaveProperty('plan');
    expect(mapped).not.toHaveProperty('userId');
    expect(mapped).not.toHaveProperty('subscriptionId');
  });

  it('when a one-call checkout completes, then the grant and plugin are read; a malformed grant or plugin names none', () => {
    const grantId = randomUUID();
    const session = checkoutSession({ mode: 'payment', subscription: null, metadata: { kind: 'one-call', plugin: 'tts', grantId } });
    expect(verifySigned(checkoutCompletedEvent(session))).toMatchObject({ type: 'checkout.completed', kind: 'one-call', oneCall: { grantId, plugin: 'tts' }, paid: true });
    for (const metadata of [
      { kind: 'one-call', plugin: 'image', grantId },
      { kind: 'one-call', plugin: 'tts', grantId: 'grant-1' },
      { kind: 'one-call', grantId },
      { kind: 'credits', plugin: 'tts', grantId },
    ]) {
      const mapped = verifySigned(checkoutCompletedEvent(checkoutSession({ mode: 'payment', subscription: null, metadata })));
      expect(mapped).not.toHaveProperty('oneCall');
    }
  });

  it('when the reference is not a user id or metadata is unknown, then those fields are left out', () => {
    const session = checkoutSession({ client_reference_id: 'not-a-uuid', metadata: { plan: 'gold', pack: '999' }, payment_status: 'unpaid' });
    const mapped = verifySigned(checkoutCompletedEvent(session));
    expect(mapped).toMatchObject({ type: 'checkout.completed', kind: 'subscription', paid: false });
    expect(mapped).not.toHaveProperty('userId');
    expect(mapped).not.toHaveProperty('plan');
    expect(mapped).not.toHaveProperty('pack');
  });

  it.each(['created', 'updated'] as const)('when a subscription is %s, then status, plan, period end and user are read', (t) => {
    const userId = randomUUID();
    const sub = subscription({ id: 'sub_9', customer: 'cus_9', status: 'past_due', metadata: { plan: 'network', userId } });
    const event = subscriptionEvent(t, sub);
    const periodEnd = ((sub.items as { data: { current_period_end: number }[] }).data[0]!.current_period_end);
    expect(verifySigned(event)).toEqual({
      id: event.id,
      type: 'subscription.changed',
      processorType: `customer.subscription.${t}`,
      createdAt: new Date(event.created * 1000),
      subscriptionId: 'sub_9',
      customerId: 'cus_9',
      status: 'past_due',
      plan: { catalog: 'checkout', plan: 'network' },
      kind: 'subscription',
      userId,
      currentPeriodEnd: new Date(periodEnd * 1000),
      deleted: false,
    });
  });

  it('when a subscription is deleted, then it is canceled', () => {
    const mapped = verifySigned(subscriptionEvent('deleted', subscription({ status: 'active' })));
    expect(mapped).toMatchObject({ type: 'subscription.changed', status: 'canceled', deleted: true });
  });

  it('when metadata names no plan, then the price decides (plan or storage add-on)', () => {
    expect(verifySigned(subscriptionEvent('updated', subscription({ metadata: {}, priceId: 'price_pro' })))).toMatchObject({
      plan: { catalog: 'billing', plan: 'pro' },
      kind: 'subscription',
    });
    const storage = verifySigned(subscriptionEvent('updated', subscription({ metadata: {}, priceId: 'price_storage' })));
    expect(storage).toMatchObject({ kind: 'storage' });
    expect(storage).not.toHaveProperty('plan');
  });

  it('when the payload uses the older shape, then the legacy period end is read', () => {
    const sub = subscription({ items: { object: 'list', data: [{ price: { id: 'price_x' } }] }, current_period_end: 1_900_000_000 });
    expect(verifySigned(subscriptionEvent('updated', sub))).toMatchObject({ currentPeriodEnd: new Date(1_900_000_000_000) });
  });

  it('when the subscription status is one this service does not know, then the event is unknown', () => {
    expect(verifySigned(subscriptionEvent('updated', subscription({ status: 'frozen' }))).type).toBe('unknown');
  });

  it('when an invoice is paid or fails, then customer and subscription are read (current and legacy shapes)', () => {
    expect(verifySigned(invoiceEvent('payment_succeeded', invoice({ customer: 'cus_2', subscriptionId: 'sub_2' })))).toMatchObject({
      type: 'invoice.paid', processorType: 'invoice.payment_succeeded', customerId: 'cus_2', subscriptionId: 'sub_2',
    });
    expect(verifySigned(invoiceEvent('payment_failed', invoice({ customer: 'cus_3', subscriptionId: 'sub_3' })))).toMatchObject({
      type: 'invoice.payment_failed', customerId: 'cus_3', subscriptionId: 'sub_3',
    });
    const legacy = verifySigned(invoiceEvent('payment_failed', invoice({ customer: { id: 'cus_4', object: 'customer' }, subscriptionId: null, subscription: 'sub_4' })));
    expect(legacy).toMatchObject({ type: 'invoice.payment_failed', customerId: 'cus_4', subscriptionId: 'sub_4' });
    const oneOff = verifySigned(invoiceEvent('payment_succeeded', invoice({ subscriptionId: null })));
    expect(oneOff).toMatchObject({ type: 'invoice.paid' });
    expect(oneOff).not.toHaveProperty('subscriptionId');
  });

  it('when the type is not subscribed, then it maps to unknown with its processor type', () => {
    const event = stripeEvent('charge.refunded', { id: 'ch_1', object: 'charge' });
    expect(verifySigned(event)).toEqual({ id: event.id, type: 'unknown', processorType: 'charge.refunded', createdAt: new Date(event.created * 1000) });
  });

  it('when a signed JSON body is not an event, then WEBHOOK_PAYLOAD_INVALID', () => {
    expect(codeOf(() => verifySigned({ hello: 'world' }))).toBe('WEBHOOK_PAYLOAD_INVALID');
  });
});
