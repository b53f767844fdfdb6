import { describe, expect, it } from 'vitest';
import { paymentBypassOf, requirePaidPlan } from '../../../../src/domain/agents/channel-provisioning.js';

describe('channel provisioning rules', () => {
  it('a paid checkout plan passes; free or none is PAYMENT_REQUIRED', () => {
    expect(requirePaidPlan('solo')).toBe('solo');
    for (const p of ['free', undefined, 'starter']) expect(() => requirePaidPlan(p)).toThrow(expect.objectContaining({ code: 'PAYMENT_REQUIRED' }));
  });

  it('the bypass needs the caller\'s own e-mail, and that e-mail an admin\'s or a listed tester\'s', () => {
    const testers = ['t@example.test'];
    expect(paymentBypassOf({ email: 'a@example.test', emailVerified: true, role: 'admin' }, ' A@Example.test ', testers)).toBe('admin');
    expect(paymentBypassOf({ email: 'a@example.test', emailVerified: true, role: 'admin' }, undefined, testers)).toBeNull();
    expect(paymentBypassOf({ email: 't@example.test', emailVerified: true, role: 'user' }, 't@example.test', testers)).toBe('tester');
    expect(paymentBypassOf({ email: 'u@example.test', emailVerified: true, role: 'user' }, 't@example.test', testers)).toBeNull();
    expect(paymentBypassOf({ email: 'u@example.test', emailVerified: true, role: 'user' }, 'u@example.test', testers)).toBeNull();
  });

  it('a listed tester address that is not verified grants no bypass', () => {
    expect(paymentBypassOf({ email: 't@example.test', emailVerified: false, role: 'user' }, 't@example.test', ['t@example.test'])).toBeNull();
  });
});
