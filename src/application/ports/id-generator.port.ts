import type { InjectionToken } from 'tsyringe';

/**
 * Randomness, injected as the clock is: every id, nonce and secret the core makes comes from
 * here, so one adapter decides the source (a cryptographically secure one) and a test can make
 * the values predictable.
 */
export interface IdGenerator {
  /** A random (version 4) UUID. */
  uuid(): string;
  /** `length` bytes from a cryptographically secure source: the raw material of tokens and secrets. */
  bytes(length: number): Buffer;
}
export const ID_GENERATOR: InjectionToken<IdGenerator> = Symbol('IdGenerator');
