import type { AiProviderName } from '../../../src/domain/ai/ai-model.js';
import { ProviderError, ProviderUnavailableError } from '../../../src/application/ai/ai-provider.errors.js';
import type {
  AiProvider,
  ChatCompletion,
  ChatRequest,
  ChatStreamEvent,
  ProviderCallOptions,
  TokenUsage,
} from '../../../src/application/ports/ai-provider.port.js';

/** What the fake does on one call. */
export type FakeOutcome =
  | { readonly reply: string; readonly usage?: TokenUsage; readonly chunks?: readonly string[] }
  /** Streams these deltas, then throws `error` (a failure after the first delta). */
  | { readonly chunks: readonly string[]; readonly thenFail: Error }
  | { readonly fail: Error }
  /** Never answers until the caller's signal aborts. */
  | { readonly hang: true };

export const usage = (promptTokens: number, completionTokens: number): TokenUsage => ({
  promptTokens,
  completionTokens,
  totalTokens: promptTokens + completionTokens,
});

export const httpFailure = (provider: string, status = 500): ProviderError =>
  new ProviderError(provider, 'http', `${provider}: HTTP ${status}`, status);

/**
 * A port fake for application tests: answers from a queue of outcomes (then `fallback`),
 * records every call, honours the caller's signal like a real adapter (rejects with its reason).
 */
export class FakeAiProvider implements AiProvider {
  readonly calls: { request: ChatRequest | undefined; opts: ProviderCallOptions; method: 'complete' | 'stream' | 'listModels' }[] = [];
  configured = true;
  /** Outcome of listModels: true answers, an Error rejects, 'hang' waits for the signal or timeoutMs. */
  health: true | Error | 'hang' = true;
  /** Set when a stream was closed before its end (the consumer left). */
  streamsClosedEarly = 0;
  private readonly queue: FakeOutcome[] = [];

  constructor(
    readonly name: AiProviderName,
    private fallback: FakeOutcome = { reply: `hello from ${name}` },
  ) {}

  then(...outcomes: FakeOutcome[]): this {
    this.queue.push(...outcomes);
    return this;
  }

  always(outcome: FakeOutcome): this {
    this.fallback = outcome;
    return this;
  }

  isConfigured(): boolean {
    return this.configured;
  }

  async complete(request: ChatRequest, opts: ProviderCallOptions = {}): Promise<ChatCompletion> {
    const outcome = this.begin('complete', request, opts);
    if ('hang' in outcome) return waitForAbort(opts.signal);
    if ('fail' in outcome) throw outcome.fail;
    if ('thenFail' in outcome) throw outcome.thenFail;
    return { id: `fake-${this.calls.length}`, model: request.model, content: outcome.reply, usage: outcome.usage ?? usage(10, 5), finishReason: 'stop' };
  }

  async *stream(request: ChatRequest, opts: ProviderCallOptions = {}): AsyncGenerator<ChatStreamEvent> {
    const outcome = this.begin('stream', request, opts);
    if ('hang' in outcome) return await waitForAbort(opts.signal);
    if ('fail' in outcome) throw outcome.fail;
    let finished = false;
    try {
      const chunks = outcome.chunks ?? ('reply' in outcome ? [outcome.reply] : []);
      for (const text of chunks) {
        opts.signal?.throwIfAborted();
        yield { type: 'delta', text };
      }
      if ('thenFail' in outcome) throw outcome.thenFail;
      finished = true;
      yield { type: 'done', id: `fake-${this.calls.length}`, usage: outcome.usage ?? usage(10, 5), finishReason: 'stop' };
    } finally {
      if (!finished) this.streamsClosedEarly += 1;
    }
  }

  async listModels(opts: ProviderCallOptions = {}): Promise<string[]> {
    this.calls.push({ request: undefined, opts, method: 'listModels' });
    if (!this.configured && !opts.apiKey) throw new ProviderUnavailableError([this.name]);
    if (this.health === 'hang') {
      // A plain timer, not AbortSignal.any(AbortSignal.timeout(...)): on Node 20 the composite holds
      // its sources weakly, and a collected timeout signal never fires (seen as a 30 s hang under load).
      return new Promise<never>((_, reject) => {
        const fail = () => reject(new ProviderError(this.name, 'timeout', `${this.name}: timeout`));
        if (opts.timeoutMs !== undefined) setTimeout(fail, opts.timeoutMs);
        opts.signal?.addEventListener('abort', fail, { once: true });
      });
    }
    if (this.health instanceof Error) throw this.health;
    return [`${this.name}-model`];
  }

  private begin(method: 'complete' | 'stream', request: ChatRequest, opts: ProviderCallOptions): FakeOutcome {
    this.calls.push({ request, opts, method });
    opts.signal?.throwIfAborted();
    if (!this.configured && !opts.apiKey) throw new ProviderUnavailableError([this.name]);
    return this.queue.shift() ?? this.fallback;
  }
}

function waitForAbort(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
