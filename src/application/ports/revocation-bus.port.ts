import type { InjectionToken } from 'tsyringe';

/** Sessions or keys that ended, or users whose e-mail or its verified mark changed (their rows are re-read). */
export interface Revocation {
  kind: 'session' | 'api-key' | 'user';
  ids: string[];
}

/**
 * Tells every other process that credentials ended, so their caches drop them at once instead of
 * within the 10-second cache lifetime. Best effort: the TTL remains the guarantee.
 */
export interface RevocationBus {
  publish(revocation: Revocation): Promise<void>;
}
export const REVOCATION_BUS: InjectionToken<RevocationBus> = Symbol('RevocationBus');
