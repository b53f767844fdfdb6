import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { StripePaymentGateway } from '../../../src/adapters/outbound/payments/stripe-payment-gateway.js';
import { UpstreamUnavailableError } from '../../../src/application/errors.js';
import type { CheckoutInput } from '../../../src/application/ports/payment-gateway.port.js';
import { asUserId } from '../../../src/domain/shared/ids.js';
import { startFakeStripe, stripeJson, type Responder } from '../../support/payments/fake-stripe-server.js';

type Fake = Awaited<ReturnType<typeof startFakeStripe>>;
let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const happy: Responder = (req) =>
  req.path === '/v1/customers'
    ? { status: 200, body: stripeJson.customer('cus_new', req.form.get('email') ?? '') }
    : { status: 200, body: stripeJson.checkoutSession('cs_test_1') };

async function gatewayWith(responder: Responder, timeoutMs = 2000) {
  fake = await startFakeStripe(responder);
  return new StripePaymentGateway({ secretKey: 'sk_test_fake', api: fake.api, timeoutMs, maxNetworkRetries: 0 });
}

const input = (over: Partial<CheckoutInput> = {}): CheckoutInput => ({
  kind: 'subscription',
  priceId: 'price_solo',
  user: { id: asUserId(randomUUID()), email: 'a@example.com' },
  successUrl: 'http://app.test/onboarding',
  cancelUrl: 'http://app.test/pricing',
  metadata: { plan: 'solo' },
  ...over,
});

describe('Stripe payment gateway', () => {
  it('when the user has no customer, then one is created and the subscription session uses it', async () => {
    const gw = await gatewayWith(happy);
    const i = input();
    const out = await gw.createCheckout(i);

    expect(out).toEqual({ url: 'https://checkout.stripe.com/c/pay/cs_test_1', sessionId: 'cs_test_1', customerId: 'cus_new' });
    const [customer, session] = fake!.requests;
    expect(fake!.requests).toHaveLength(2);
    expect(customer).toMatchObject({ method: 'POST', path: '/v1/customers' });
    expect(customer!.form.get('email')).toBe('a@example.com');
    expect(customer!.form.get('metadata[userId]')).toBe(i.user.id);
    expect(customer!.headers['idempotency-key']).toMatch(new RegExp(`^customer-${i.user.id}-`));
    expect(customer!.headers.authorization).toBe('Bearer sk_test_fake');

    expect(session).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    const f = session!.form;
    expect(f.get('mode')).toBe('subscription');
    expect(f.get('line_items[0][price]')).toBe('price_solo');
    expect(f.get('line_items[0][quantity]')).toBe('1');
    expect(f.get('customer')).toBe('cus_new');
    expect(f.get('client_reference_id')).toBe(i.user.id);
    expect(f.get('success_url')).toBe('http://app.test/onboarding');
    expect(f.get('cancel_url')).toBe('http://app.test/pricing');
    expect(f.get('metadata[plan]')).toBe('solo');
    expect(f.get('metadata[kind]')).toBe('subscription');
    expect(f.get('metadata[userId]')).toBe(i.user.id);
    expect(f.get('subscription_data[metadata][plan]')).toBe('solo');
    expect(f.get('subscription_data[metadata][userId]')).toBe(i.user.id);
    expect(f.has('payment_intent_data[metadata][plan]')).toBe(false);
  });

  it('when the user already has a customer, then no customer is created', async () => {
    const gw = await gatewayWith(happy);
    const out = await gw.createCheckout(input({ user: { id: asUserId(randomUUID()), email: 'a@example.com', customerId: 'cus_known' } }));
    expect(out.customerId).toBe('cus_known');
    expect(fake!.requests.map((r) => r.path)).toEqual(['/v1/checkout/sessions']);
    expect(fake!.requests[0]!.form.get('customer')).toBe('cus_known');
  });

  it('when buying credits, then the session is a one-off payment carrying the pack', async () => {
    const gw = await gatewayWith(happy);
    await gw.createCheckout(input({ kind: 'credits', priceId: 'price_credits_200', metadata: { pack: '200' }, user: { id: asUserId(randomUUID()), email: 'a@example.com', customerId: 'cus_known' } }));
    const f = fake!.requests[0]!.form;
    expect(f.get('mode')).toBe('payment');
    expect(f.get('line_items[0][price]')).toBe('price_credits_200');
    expect(f.get('metadata[pack]')).toBe('200');
    expect(f.get('metadata[kind]')).toBe('credits');
    expect(f.get('payment_intent_data[metadata][pack]')).toBe('200');
    expect(f.has('subscription_data[metadata][pack]')).toBe(false);
  });

  it('when upgrading storage, then the session is a subscription of kind storage', async () => {
    const gw = await gatewayWith(happy);
    await gw.createCheckout(input({ kind: 'storage', priceId: 'price_storage', metadata: {}, user: { id: asUserId(randomUUID()), email: 'a@example.com', customerId: 'cus_known' } }));
    const f = fake!.requests[0]!.form;
    expect(f.get('mode')).toBe('subscription');
    expect(f.get('metadata[kind]')).toBe('storage');
    expect(f.get('subscription_data[metadata][kind]')).toBe('storage');
  });

  it('when the caller passes kind or userId in metadata, then the adapter values win', async () => {
    const gw = await gatewayWith(happy);
    const i = input({ metadata: { plan: 'solo', kind: 'credits', userId: 'someone-else' } });
    await gw.createCheckout(i);
    const f = fake!.requests[1]!.form;
    expect(f.get('metadata[kind]')).toBe('subscription');
    expect(f.get('metadata[userId]')).toBe(i.user.id);
  });

  it('when the processor answers 500, then UpstreamUnavailableError, quickly', async () => {
    const gw = await gatewayWith(() => ({ status: 500, body: stripeJson.error('boom') }));
    const started = Date.now();
    const err = await gw.createCheckout(input()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(err).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstream: 'payment processor' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('when the session creation fails after the customer was made, then UpstreamUnavailableError', async () => {
    const gw = await gatewayWith((req) =>
      req.path === '/v1/customers'
        ? { status: 200, body: stripeJson.customer('cus_new', 'a@example.com') }
        : { status: 400, body: stripeJson.error('No such price', 'invalid_request_error') },
    );
    await expect(gw.createCheckout(input())).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('when the processor hangs, then the timeout turns into UpstreamUnavailableError, quickly', async () => {
    const gw = await gatewayWith(() => 'hang', 300);
    const started = Date.now();
    await expect(gw.createCheckout(input())).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('when a session comes back without a URL, then UpstreamUnavailableError', async () => {
    const gw = await gatewayWith(() => ({ status: 200, body: stripeJson.checkoutSession('cs_x', { url: null }) }));
    await expect(gw.createCheckout(input({ user: { id: asUserId(randomUUID()), email: 'a@example.com', customerId: 'cus_known' } }))).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('when nothing listens, then UpstreamUnavailableError', async () => {
    fake = await startFakeStripe(happy);
    const api = fake.api;
    await fake.close();
    fake = undefined;
    const gw = new StripePaymentGateway({ secretKey: 'sk_test_fake', api, timeoutMs: 1000, maxNetworkRetries: 0 });
    await expect(gw.createCheckout(input())).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});
