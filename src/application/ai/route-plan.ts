import type { AiModel, AiProviderName } from '../../domain/ai/ai-model.js';
import { NotFoundError } from '../errors.js';
import type { AiProvider, CallProgress } from '../ports/ai-provider.port.js';
import { ProviderError, ProviderUnavailableError } from './ai-provider.errors.js';
import type { CircuitBreaker } from './circuit-breaker.js';

export interface RouteOptions {
  /** The caller's abort: cancels the current attempt and ends routing (no fallback, no breaker count). */
  readonly signal?: AbortSignal;
  /** Per attempt; the adapters' configured timeout when absent. */
  readonly timeoutMs?: number;
  /**
   * A BYOK call: the user's keys by provider. Only candidates whose provider has a key here are
   * tried, so a call that reserved no units (CONTRACT section 6) never spends the platform's keys.
   */
  readonly byokKeys?: Partial<Record<AiProviderName, string>>;
  /** Told when an attempt's request has gone out, and of the vendor's prompt count (ProviderReach). */
  readonly progress?: CallProgress;
}

/** One candidate the router may try: the model, its provider, and the user's key if BYOK. */
export interface Attempt {
  readonly model: AiModel;
  readonly provider: AiProvider;
  readonly apiKey: string | undefined;
}

/**
 * The candidates that can be tried at all, in the given order: those whose provider exists and
 * is configured (or, for BYOK, has the user's key). Never adds a model that was not given.
 */
export function planAttempts(
  candidates: readonly AiModel[],
  providers: ReadonlyMap<string, AiProvider>,
  opts: RouteOptions,
): Attempt[] {
  if (candidates.length === 0) throw new NotFoundError('AI model');
  const byok = opts.byokKeys !== undefined && Object.values(opts.byokKeys).some(Boolean);
  const attempts: Attempt[] = [];
  for (const model of candidates) {
    const provider = providers.get(model.provider);
    if (!provider) continue;
    const apiKey = byok ? opts.byokKeys?.[model.provider] || undefined : undefined;
    if (byok ? apiKey !== undefined : provider.isConfigured()) attempts.push({ model, provider, apiKey });
  }
  if (attempts.length === 0) throw new ProviderUnavailableError([...new Set(candidates.map((m) => m.provider))]);
  return attempts;
}

/**
 * Books a failed attempt with its breaker and says whether routing may go on to the next
 * candidate: yes for a ProviderError or an unavailable provider, no when the caller left or the
 * error is not the port's (a bug must not be hidden behind a fallback).
 */
export function settleFailure(breaker: CircuitBreaker, err: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) {
    breaker.release();
    return false;
  }
  if (err instanceof ProviderError && err.countsAgainstProvider) breaker.recordFailure();
  else breaker.release();
  return err instanceof ProviderError || err instanceof ProviderUnavailableError;
}

/** What routing throws when no attempt succeeded: the last provider failure, else why none ran. */
export function exhausted(failures: readonly ProviderError[], skipped: readonly string[], unavailable: readonly string[]): Error {
  const last = failures[failures.length - 1];
  if (last) return last;
  if (skipped.length > 0) {
    return new ProviderError(skipped.join(','), 'circuit_open', `AI providers temporarily disabled after failures: ${skipped.join(', ')}`);
  }
  return new ProviderUnavailableError(unavailable);
}
