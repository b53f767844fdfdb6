import type { InjectionToken } from 'tsyringe';

/** Time, injected so rules about expiry are testable without waiting. */
export interface Clock {
  now(): Date;
}
export const CLOCK: InjectionToken<Clock> = Symbol('Clock');
export const systemClock: Clock = { now: () => new Date() };
