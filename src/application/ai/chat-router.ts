import { inject, injectable } from 'tsyringe';
import type { AiModel, AiProviderName } from '../../domain/ai/ai-model.js';
import {
  AI_PROVIDERS,
  type AiProvider,
  type ChatCompletion,
  type ChatRequest,
  type ChatStreamEvent,
  type TokenUsage,
} from '../ports/ai-provider.port.js';
import { ProviderError } from './ai-provider.errors.js';
import { CircuitBreakers } from './circuit-breaker.js';
import { exhausted, planAttempts, settleFailure, type Attempt, type RouteOptions } from './route-plan.js';

export type { RouteOptions } from './route-plan.js';

/** A chat request before routing picks the model. */
export type ChatInput = Omit<ChatRequest, 'model'>;

export interface RoutedCompletion {
  readonly model: AiModel;
  readonly provider: AiProviderName;
  readonly completion: ChatCompletion;
  readonly usage: TokenUsage;
  /** Failures of earlier candidates that were skipped over, for the log. */
  readonly fallbacks: readonly ProviderError[];
}

/** `start` names the model once routing is committed (just before the first delta); `done` ends the stream. */
export type RoutedStreamEvent =
  | { readonly type: 'start'; readonly model: AiModel; readonly provider: AiProviderName; readonly fallbacks: readonly ProviderError[] }
  | { readonly type: 'delta'; readonly text: string }
  | (Extract<ChatStreamEvent, { type: 'done' }> & { readonly model: AiModel; readonly provider: AiProviderName });

/**
 * Sends a chat to the first candidate that can take it and falls back along the candidate list
 * (already filtered to what the plan allows; the router never adds a model). A candidate is
 * skipped when its provider is unconfigured or its circuit is open; a ProviderError moves on to
 * the next one. Throws: the last ProviderError when every tried candidate failed; a
 * `circuit_open` ProviderError when all were skipped for open circuits; ProviderUnavailableError
 * when no candidate's provider is configured; NotFoundError for an empty list; the caller's abort
 * reason when the caller aborts (no fallback then).
 */
@injectable()
export class ChatRouter {
  private readonly providers: ReadonlyMap<string, AiProvider>;

  constructor(
    @inject(AI_PROVIDERS) providers: AiProvider[],
    @inject(CircuitBreakers) private readonly breakers: CircuitBreakers,
  ) {
    this.providers = new Map(providers.map((p) => [p.name, p]));
  }

  async complete(candidates: readonly AiModel[], input: ChatInput, opts: RouteOptions = {}): Promise<RoutedCompletion> {
    const attempts = planAttempts(candidates, this.providers, opts);
    const failures: ProviderError[] = [];
    const skipped: string[] = [];
    for (const attempt of attempts) {
      const breaker = this.breakers.for(attempt.model.provider);
      if (!breaker.tryAcquire()) {
        skipped.push(attempt.model.provider);
        continue;
      }
      try {
        const completion = await attempt.provider.complete({ ...input, model: attempt.model.id }, this.callOptions(attempt, opts));
        breaker.recordSuccess();
        return { model: attempt.model, provider: attempt.model.provider, completion, usage: completion.usage, fallbacks: failures };
      } catch (err) {
        if (!settleFailure(breaker, err, opts.signal)) throw err;
        if (err instanceof ProviderError) failures.push(err);
      }
    }
    throw exhausted(failures, skipped, attempts.map((a) => a.model.provider));
  }

  /**
   * Streaming variant. Falling back is only possible until the first event has arrived: after
   * `start` the client has seen this model, so a later failure ends the stream with that error.
   * Leaving the iteration early cancels the provider's request.
   */
  async *stream(candidates: readonly AiModel[], input: ChatInput, opts: RouteOptions = {}): AsyncGenerator<RoutedStreamEvent> {
    const attempts = planAttempts(candidates, this.providers, opts);
    const failures: ProviderError[] = [];
    const skipped: string[] = [];
    for (const attempt of attempts) {
      const breaker = this.breakers.for(attempt.model.provider);
      if (!breaker.tryAcquire()) {
        skipped.push(attempt.model.provider);
        continue;
      }
      const events = attempt.provider.stream({ ...input, model: attempt.model.id }, this.callOptions(attempt, opts))[Symbol.asyncIterator]();
      let first: IteratorResult<ChatStreamEvent>;
      try {
        first = await events.next();
        if (first.done) throw new ProviderError(attempt.model.provider, 'bad_response', `${attempt.model.provider}: empty stream`);
      } catch (err) {
        if (!settleFailure(breaker, err, opts.signal)) throw err;
        if (err instanceof ProviderError) failures.push(err);
        continue;
      }
      const { model } = attempt;
      yield* this.relay({ type: 'start', model, provider: model.provider, fallbacks: failures }, first.value, events, breaker, model, opts.signal);
      return;
    }
    throw exhausted(failures, skipped, attempts.map((a) => a.model.provider));
  }

  /**
   * Passes a committed stream through, from its `start` event, booking its outcome with the breaker
   * exactly once, and closes the provider's stream if the consumer leaves. A consumer that leaves
   * (returns early, or aborts) books nothing about the provider: the breaker's slot is released, so a
   * half-open trial never stays taken. On abort that happens at once, because a consumer that
   * stopped reading may never resume or return this generator.
   */
  private async *relay(
    start: RoutedStreamEvent,
    first: ChatStreamEvent,
    events: AsyncIterator<ChatStreamEvent>,
    breaker: ReturnType<CircuitBreakers['for']>,
    model: AiModel,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<RoutedStreamEvent> {
    let booked = false;
    const book = (outcome: () => void) => {
      if (booked) return;
      booked = true;
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = () => book(() => breaker.release());
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    try {
      yield start;
      let event = first;
      for (;;) {
        if (event.type === 'done') {
          book(() => breaker.recordSuccess());
          yield { ...event, model, provider: model.provider };
          return;
        }
        yield event;
        const next = await events.next();
        if (next.done) throw new ProviderError(model.provider, 'bad_response', `${model.provider}: stream ended without usage`);
        event = next.value;
      }
    } catch (err) {
      book(() => settleFailure(breaker, err, signal));
      throw err;
    } finally {
      book(() => breaker.release());
      await events.return?.();
    }
  }

  private callOptions(attempt: Attempt, opts: RouteOptions) {
    return { signal: opts.signal, timeoutMs: opts.timeoutMs, apiKey: attempt.apiKey, progress: opts.progress };
  }
}
