import { ManualClock } from '../../../fakes/manual-clock.js';
import { describe, expect, it } from 'vitest';
import type { CircuitBreakerSettings } from '../../../../src/application/ports/circuit-breaker-settings.port.js';
import { CircuitBreaker, CircuitBreakers } from '../../../../src/application/ai/circuit-breaker.js';

const settings: CircuitBreakerSettings = { consecutiveFailures: 3, windowMs: 10_000, minCallsInWindow: 10, failureRate: 0.5, cooldownMs: 5_000 };

function setup(overrides: Partial<CircuitBreakerSettings> = {}) {
  const clock = new ManualClock(1_000_000);
  return { clock, breaker: new CircuitBreaker(clock, { ...settings, ...overrides }) };
}

const fail = (b: CircuitBreaker, n: number) => {
  for (let i = 0; i < n; i++) {
    expect(b.tryAcquire()).toBe(true);
    b.recordFailure();
  }
};

describe('CircuitBreaker', () => {
  it('stays closed below the consecutive-failure threshold and a success resets the count', () => {
    const { breaker } = setup();
    fail(breaker, 2);
    breaker.recordSuccess();
    fail(breaker, 2);
    expect(breaker.state).toBe('closed');
  });

  it('opens after N consecutive failures and refuses calls until the cooldown', () => {
    const { breaker, clock } = setup();
    fail(breaker, 3);
    expect(breaker.state).toBe('open');
    expect(breaker.tryAcquire()).toBe(false);
    clock.advance(4_999);
    expect(breaker.tryAcquire()).toBe(false);
  });

  it('lets exactly one trial through when half-open; success closes it', () => {
    const { breaker, clock } = setup();
    fail(breaker, 3);
    clock.advance(5_000);
    expect(breaker.state).toBe('half-open');
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    breaker.recordSuccess();
    expect(breaker.state).toBe('closed');
    expect(breaker.tryAcquire()).toBe(true);
  });

  it('reopens for a full cooldown when the trial fails', () => {
    const { breaker, clock } = setup();
    fail(breaker, 3);
    clock.advance(5_000);
    expect(breaker.tryAcquire()).toBe(true);
    breaker.recordFailure();
    expect(breaker.state).toBe('open');
    clock.advance(4_000);
    expect(breaker.tryAcquire()).toBe(false);
    clock.advance(1_000);
    expect(breaker.tryAcquire()).toBe(true);
  });

  it('frees the trial slot on release (the caller left), without closing', () => {
    const { breaker, clock } = setup();
    fail(breaker, 3);
    clock.advance(5_000);
    expect(breaker.tryAcquire()).toBe(true);
    breaker.release();
    expect(breaker.state).toBe('half-open');
    expect(breaker.tryAcquire()).toBe(true);
  });

  it('opens on the failure rate in the window even without a consecutive run', () => {
    const { breaker } = setup({ consecutiveFailures: 100 });
    for (let i = 0; i < 5; i++) {
      breaker.recordSuccess();
      breaker.recordFailure();
    }
    expect(breaker.state).toBe('open');
  });

  it('forgets outcomes older than the window', () => {
    const { breaker, clock } = setup({ consecutiveFailures: 100 });
    for (let i = 0; i < 4; i++) breaker.recordFailure();
    clock.advance(20_000);
    for (let i = 0; i < 6; i++) breaker.recordSuccess();
    breaker.recordFailure();
    expect(breaker.state).toBe('closed');
  });

  it('ignores the rate until the window holds enough calls', () => {
    const { breaker } = setup({ consecutiveFailures: 100 });
    breaker.recordSuccess();
    breaker.recordFailure();
    breaker.recordFailure();
    expect(breaker.state).toBe('closed');
  });
});

describe('CircuitBreakers', () => {
  it('keeps one independent breaker per provider', () => {
    const clock = new ManualClock(0);
    const breakers = new CircuitBreakers(clock, settings);
    expect(breakers.for('openai')).toBe(breakers.for('openai'));
    fail(breakers.for('openai'), 3);
    expect(breakers.states()).toEqual({ openai: 'open' });
    expect(breakers.for('anthropic').state).toBe('closed');
  });
});
