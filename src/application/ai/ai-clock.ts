import type { InjectionToken } from 'tsyringe';

/** Milliseconds since some fixed point; injected so breakers and caches are tested without sleeping. */
export interface MillisClock {
  now(): number;
}
export const AI_CLOCK: InjectionToken<MillisClock> = Symbol('AiClock');
export const systemMillisClock: MillisClock = { now: () => Date.now() };
