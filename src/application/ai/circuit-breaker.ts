import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { type CircuitBreakerSettings, DEFAULT_BREAKER_SETTINGS, CIRCUIT_BREAKER_SETTINGS } from '../ports/circuit-breaker-settings.port.js';

export type BreakerState = 'closed' | 'open' | 'half-open';

/**
 * One provider's breaker, judged from live traffic only (no probing). Closed: calls flow; it
 * opens after N consecutive failures or a failure rate over the window. Open: calls are refused
 * until the cooldown has passed; then the first `tryAcquire` becomes the single half-open trial,
 * whose success closes the circuit and whose failure opens it for another cooldown.
 * Every granted `tryAcquire` must end in exactly one of `recordSuccess`, `recordFailure`, `release`.
 */
export class CircuitBreaker {
  private current: BreakerState = 'closed';
  private openedAt = 0;
  private trialInFlight = false;
  private consecutive = 0;
  /** The window as 10 time buckets: constant memory and work however busy the provider is. */
  private buckets: { start: number; calls: number; failures: number }[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly settings: CircuitBreakerSettings = DEFAULT_BREAKER_SETTINGS,
  ) {}

  /** The state as of now (an open circuit past its cooldown reads as half-open). */
  get state(): BreakerState {
    if (this.current === 'open' && this.clock.now().getTime() - this.openedAt >= this.settings.cooldownMs) return 'half-open';
    return this.current;
  }

  /** Whether a call may go out now; in half-open, true for exactly one caller at a time. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.trialInFlight) return false;
    this.current = 'half-open';
    this.trialInFlight = true;
    return true;
  }

  recordSuccess(): void {
    this.push(false);
    this.consecutive = 0;
    if (this.current === 'half-open') this.reset();
  }

  recordFailure(): void {
    this.push(true);
    this.consecutive += 1;
    if (this.current === 'half-open' || this.tripped()) this.open();
  }

  /** The call ended without saying anything about the provider (the caller left, a 4xx). */
  release(): void {
    this.trialInFlight = false;
  }

  private tripped(): boolean {
    if (this.consecutive >= this.settings.consecutiveFailures) return true;
    let calls = 0;
    let failures = 0;
    for (const b of this.buckets) {
      calls += b.calls;
      failures += b.failures;
    }
    return calls >= this.settings.minCallsInWindow && failures / calls >= this.settings.failureRate;
  }

  private push(failed: boolean): void {
    const now = this.clock.now().getTime();
    const width = Math.max(1, Math.ceil(this.settings.windowMs / 10));
    const start = now - (now % width);
    // a bucket counts while any part of it lies inside the window
    this.buckets = this.buckets.filter((b) => b.start + width > now - this.settings.windowMs);
    let bucket = this.buckets[this.buckets.length - 1];
    if (!bucket || bucket.start !== start) {
      bucket = { start, calls: 0, failures: 0 };
      this.buckets.push(bucket);
    }
    bucket.calls += 1;
    if (failed) bucket.failures += 1;
  }

  private open(): void {
    this.current = 'open';
    this.openedAt = this.clock.now().getTime();
    this.trialInFlight = false;
  }

  private reset(): void {
    this.current = 'closed';
    this.trialInFlight = false;
    this.consecutive = 0;
    this.buckets = [];
  }
}

/** One breaker per provider name, created on first use; register as a singleton. */
@injectable()
export class CircuitBreakers {
  private readonly byProvider = new Map<string, CircuitBreaker>();

  constructor(
    @inject(CLOCK) private readonly clock: Clock,
    @inject(CIRCUIT_BREAKER_SETTINGS) private readonly settings: CircuitBreakerSettings,
  ) {}

  for(provider: string): CircuitBreaker {
    let breaker = this.byProvider.get(provider);
    if (!breaker) {
      breaker = new CircuitBreaker(this.clock, this.settings);
      this.byProvider.set(provider, breaker);
    }
    return breaker;
  }

  /** Every breaker used so far and its state, for logs and health pages. */
  states(): Record<string, BreakerState> {
    return Object.fromEntries([...this.byProvider].map(([name, b]) => [name, b.state]));
  }
}
