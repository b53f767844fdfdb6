import type { InjectionToken } from 'tsyringe';

export interface CircuitBreakerSettings {
  /** Consecutive failures that open the circuit. */
  readonly consecutiveFailures: number;
  /** Sliding window for the failure rate, ms. */
  readonly windowMs: number;
  /** The rate rule applies only once the window holds this many calls (a few calls prove nothing). */
  readonly minCallsInWindow: number;
  /** Failure share (0..1) in the window that opens the circuit. */
  readonly failureRate: number;
  /** Time an open circuit waits before letting one trial call through, ms. */
  readonly cooldownMs: number;
}

export const DEFAULT_BREAKER_SETTINGS: CircuitBreakerSettings = Object.freeze({
  consecutiveFailures: 5,
  windowMs: 60_000,
  minCallsInWindow: 10,
  failureRate: 0.5,
  cooldownMs: 30_000,
});

export const CIRCUIT_BREAKER_SETTINGS: InjectionToken<CircuitBreakerSettings> = Symbol('CircuitBreakerSettings');
