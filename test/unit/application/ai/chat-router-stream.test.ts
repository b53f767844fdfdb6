import { ManualClock } from '../../../fakes/manual-clock.js';
import { describe, expect, it } from 'vitest';
import { ProviderError, ProviderUnavailableError } from '../../../../src/application/ai/ai-provider.errors.js';
import { ChatRouter, type RoutedStreamEvent } from '../../../../src/application/ai/chat-router.js';
import { DEFAULT_BREAKER_SETTINGS } from '../../../../src/application/ports/circuit-breaker-settings.port.js';
import { CircuitBreakers } from '../../../../src/application/ai/circuit-breaker.js';
import { findModel } from '../../../../src/domain/ai/model-catalog.js';
import { FakeAiProvider, httpFailure, usage } from '../../../support/ai/fake-ai-provider.js';

const LLAMA = findModel('meta-llama/llama-3.3-70b-instruct')!;
const MINI = findModel('openai/gpt-4o-mini')!;
const input = { messages: [{ role: 'user' as const, content: 'hi' }] };

function setup() {
  const providers = { openrouter: new FakeAiProvider('openrouter'), openai: new FakeAiProvider('openai') };
  const breakers = new CircuitBreakers(new ManualClock(0), { ...DEFAULT_BREAKER_SETTINGS, consecutiveFailures: 1 });
  return { providers, breakers, router: new ChatRouter(Object.values(providers), breakers) };
}

async function collect(events: AsyncIterable<RoutedStreamEvent>): Promise<RoutedStreamEvent[]> {
  const out: RoutedStreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('ChatRouter.stream', () => {
  it('announces the model, relays deltas and ends with usage', async () => {
    const { router, providers, breakers } = setup();
    providers.openrouter.then({ reply: '', chunks: ['Hel', 'lo'], usage: usage(4, 2) });
    const events = await collect(router.stream([LLAMA, MINI], input));
    expect(events.map((e) => e.type)).toEqual(['start', 'delta', 'delta', 'done']);
    expect(events[0]).toMatchObject({ model: LLAMA, provider: 'openrouter' });
    expect(events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('')).toBe('Hello');
    expect(events[3]).toMatchObject({ type: 'done', usage: usage(4, 2), provider: 'openrouter' });
    expect(breakers.for('openrouter').state).toBe('closed');
  });

  it('falls back when the first candidate fails before its first delta', async () => {
    const { router, providers } = setup();
    providers.openrouter.then({ fail: httpFailure('openrouter', 502) });
    const events = await collect(router.stream([LLAMA, MINI], input));
    const start = events[0];
    expect(start).toMatchObject({ type: 'start', provider: 'openai' });
    expect(start?.type === 'start' && start.fallbacks.map((e: ProviderError) => e.status)).toEqual([502]);
  });

  it('does not fall back after the first delta: the error ends the stream and counts', async () => {
    const { router, providers, breakers } = setup();
    providers.openrouter.then({ chunks: ['partial'], thenFail: httpFailure('openrouter', 500) });
    const seen: RoutedStreamEvent[] = [];
    await expect(async () => {
      for await (const e of router.stream([LLAMA, MINI], input)) seen.push(e);
    }).rejects.toMatchObject({ code: 'PROVIDER_ERROR', provider: 'openrouter' });
    expect(seen.map((e) => e.type)).toEqual(['start', 'delta']);
    expect(providers.openai.calls).toHaveLength(0);
    expect(breakers.for('openrouter').state).toBe('open');
  });

  it('closes the provider stream when the consumer leaves early, without counting a failure', async () => {
    const { router, providers, breakers } = setup();
    providers.openrouter.then({ reply: '', chunks: ['a', 'b', 'c'] });
    for await (const e of router.stream([LLAMA], input)) if (e.type === 'delta') break;
    expect(providers.openrouter.streamsClosedEarly).toBe(1);
    expect(breakers.for('openrouter').state).toBe('closed');
  });

  it('rethrows a caller abort without falling back', async () => {
    const { router, providers } = setup();
    providers.openrouter.then({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 5);
    await expect(collect(router.stream([LLAMA, MINI], input, { signal: controller.signal }))).rejects.toMatchObject({ name: 'AbortError' });
    expect(providers.openai.calls).toHaveLength(0);
  });

  it('throws the last error when all fail before a delta, and unavailable when none is configured', async () => {
    const { router, providers } = setup();
    providers.openrouter.then({ fail: httpFailure('openrouter') });
    providers.openai.then({ fail: httpFailure('openai', 503) });
    await expect(collect(router.stream([LLAMA, MINI], input))).rejects.toMatchObject({ provider: 'openai', status: 503 });
    providers.openrouter.configured = false;
    providers.openai.configured = false;
    await expect(collect(router.stream([LLAMA, MINI], input))).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  describe('a half-open trial whose stream is abandoned', () => {
    /** openrouter's breaker opened by one failure and cooled down: the next call is its single trial. */
    async function halfOpen() {
      const clock = new ManualClock(0);
      const providers = { openrouter: new FakeAiProvider('openrouter') };
      const breakers = new CircuitBreakers(clock, { ...DEFAULT_BREAKER_SETTINGS, consecutiveFailures: 1 });
      const router = new ChatRouter(Object.values(providers), breakers);
      providers.openrouter.then({ fail: httpFailure('openrouter', 500) });
      await expect(collect(router.stream([LLAMA], input))).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
      clock.advance(DEFAULT_BREAKER_SETTINGS.cooldownMs);
      const breaker = breakers.for('openrouter');
      expect(breaker.state).toBe('half-open');
      return { providers, breaker, router };
    }

    it('when the consumer leaves right after the start event, then the trial is released (neither success nor failure)', async () => {
      const { providers, breaker, router } = await halfOpen();
      providers.openrouter.then({ reply: '', chunks: ['a', 'b'] });
      const events = router.stream([LLAMA], input);
      expect((await events.next()).value).toMatchObject({ type: 'start' });
      await events.return(undefined);
      expect(providers.openrouter.streamsClosedEarly).toBe(1);
      expect(breaker.state).toBe('half-open');
      expect(breaker.tryAcquire()).toBe(true); // the next call may be the trial
    });

    it('when the caller aborts after the start event and never reads again, then the trial is released', async () => {
      const { providers, breaker, router } = await halfOpen();
      providers.openrouter.then({ reply: '', chunks: ['a', 'b'] });
      const controller = new AbortController();
      const events = router.stream([LLAMA], input, { signal: controller.signal });
      expect((await events.next()).value).toMatchObject({ type: 'start' });
      controller.abort();
      expect(breaker.state).toBe('half-open');
      expect(breaker.tryAcquire()).toBe(true);
    });

    it('when the trial stream ends normally, then it counts as a success and closes the circuit', async () => {
      const { providers, breaker, router } = await halfOpen();
      providers.openrouter.then({ reply: '', chunks: [] });
      const events = router.stream([LLAMA], input);
      expect(await collect(events)).toHaveLength(2);
      expect(breaker.state).toBe('closed');
    });
  });
});
