import type { InjectionToken } from 'tsyringe';

export interface ProviderHealthSettings {
  /** How long a result is served from cache, ms (default 30 s). */
  readonly ttlMs: number;
  /** Per provider `listModels` call, ms (default 3 s). */
  readonly timeoutMs: number;
}

export const DEFAULT_PROVIDER_HEALTH_SETTINGS: ProviderHealthSettings = Object.freeze({ ttlMs: 30_000, timeoutMs: 3_000 });

export const PROVIDER_HEALTH_SETTINGS: InjectionToken<ProviderHealthSettings> = Symbol('ProviderHealthSettings');
