import { DomainError } from '../../domain/shared/domain-error.js';

/**
 * How a provider call failed. `circuit_open` is the router's own: every candidate's breaker was
 * open, so nothing was sent.
 */
export type ProviderErrorKind = 'timeout' | 'http' | 'network' | 'bad_response' | 'circuit_open';

/**
 * A configured provider failed: a non-2xx answer, an error event inside a stream, a body that
 * is not what the vendor documents, a network failure, or the timeout. On `/api/ai/chat` this is
 * the spec's 500 `PROVIDER_ERROR`. The message names the provider, kind, status and the
 * vendor's error type or code only: free vendor text goes to `upstreamMessage` (scrubbed of
 * key-like strings) for the log, never to the client, and no API key is ever part of either.
 */
export class ProviderError extends DomainError {
  constructor(
    readonly provider: string,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    readonly upstreamMessage?: string,
    override readonly cause?: unknown,
  ) {
    super('PROVIDER_ERROR', message, status === undefined ? { provider, kind } : { provider, kind, status });
  }

  /**
   * Whether the failure says something about the provider's health (and so counts for its
   * circuit breaker): timeouts, network and protocol failures, 5xx, 408 and 429. Other 4xx
   * answers (a bad request, a user's wrong BYOK key) reflect the request, not the provider.
   */
  get countsAgainstProvider(): boolean {
    if (this.kind !== 'http') return this.kind !== 'circuit_open';
    return this.status === undefined || this.status >= 500 || this.status === 408 || this.status === 429;
  }
}

/**
 * No usable provider: it has no API key (or base URL) configured and the caller brought none.
 * Unavailable, not broken: nothing was sent, and circuit breakers do not count it.
 */
export class ProviderUnavailableError extends DomainError {
  constructor(
    readonly providers: readonly string[],
    message = `AI provider not configured: ${providers.join(', ') || 'none'}`,
  ) {
    super('PROVIDER_UNAVAILABLE', message, { providers: [...providers] });
  }
}
