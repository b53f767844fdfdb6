import { ManualClock } from '../../../fakes/manual-clock.js';
import { describe, expect, it } from 'vitest';
import { ProviderError, ProviderUnavailableError } from '../../../../src/application/ai/ai-provider.errors.js';
import { ChatRouter } from '../../../../src/application/ai/chat-router.js';
import { DEFAULT_BREAKER_SETTINGS } from '../../../../src/application/ports/circuit-breaker-settings.port.js';
import { CircuitBreakers } from '../../../../src/application/ai/circuit-breaker.js';
import { findModel } from '../../../../src/domain/ai/model-catalog.js';
import type { AiModel } from '../../../../src/domain/ai/ai-model.js';
import { FakeAiProvider, httpFailure, usage } from '../../../support/ai/fake-ai-provider.js';

const model = (id: string): AiModel => findModel(id)!;
const LLAMA = model('meta-llama/llama-3.3-70b-instruct'); // openrouter
const MINI = model('openai/gpt-4o-mini'); // openai
const FLASH = model('google/gemini-2.0-flash'); // google
const input = { messages: [{ role: 'user' as const, content: 'hi' }] };

function setup() {
  const clock = new ManualClock(0);
  const providers = {
    openrouter: new FakeAiProvider('openrouter'),
    openai: new FakeAiProvider('openai'),
    google: new FakeAiProvider('google'),
  };
  const breakers = new CircuitBreakers(clock, { ...DEFAULT_BREAKER_SETTINGS, consecutiveFailures: 2, cooldownMs: 1_000 });
  return { clock, providers, breakers, router: new ChatRouter(Object.values(providers), breakers) };
}

describe('ChatRouter.complete', () => {
  it('uses the first candidate and reports model, provider and usage', async () => {
    const { router, providers } = setup();
    providers.openrouter.then({ reply: 'hey', usage: usage(7, 3) });
    const result = await router.complete([LLAMA, MINI], { ...input, temperature: 0.2 });
    expect(result.model.id).toBe(LLAMA.id);
    expect(result.provider).toBe('openrouter');
    expect(result.completion.content).toBe('hey');
    expect(result.usage).toEqual(usage(7, 3));
    expect(providers.openrouter.calls[0]?.request).toEqual({ ...input, temperature: 0.2, model: LLAMA.id });
    expect(providers.openai.calls).toHaveLength(0);
  });

  it('falls back to the next candidate on a ProviderError and keeps the failure for the log', async () => {
    const { router, providers } = setup();
    providers.openrouter.then({ fail: httpFailure('openrouter', 503) });
    const result = await router.complete([LLAMA, MINI], input);
    expect(result.model.id).toBe(MINI.id);
    expect(result.fallbacks.map((e) => e.provider)).toEqual(['openrouter']);
  });

  it('never tries a model outside the list', async () => {
    const { router, providers } = setup();
    providers.openrouter.always({ fail: httpFailure('openrouter') });
    await expect(router.complete([LLAMA], input)).rejects.toMatchObject({ code: 'PROVIDER_ERROR', provider: 'openrouter' });
    expect(providers.openai.calls).toHaveLength(0);
    expect(providers.google.calls).toHaveLength(0);
  });

  it('throws the last ProviderError when all fail', async () => {
    const { router, providers } = setup();
    providers.openrouter.then({ fail: httpFailure('openrouter', 500) });
    providers.openai.then({ fail: new ProviderError('openai', 'timeout', 'openai: timeout') });
    await expect(router.complete([LLAMA, MINI], input)).rejects.toMatchObject({ provider: 'openai', kind: 'timeout' });
  });

  it('skips unconfigured providers, and throws ProviderUnavailableError when none is configured', async () => {
    const { router, providers } = setup();
    providers.openrouter.configured = false;
    expect((await router.complete([LLAMA, MINI], input)).provider).toBe('openai');
    expect(providers.openrouter.calls).toHaveLength(0);
    providers.openai.configured = false;
    await expect(router.complete([LLAMA, MINI], input)).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('answers NOT_FOUND for an empty candidate list', async () => {
    const { router } = setup();
    await expect(router.complete([], input)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('does not fall back or count a failure when the caller aborts', async () => {
    const { router, providers, breakers } = setup();
    providers.openrouter.then({ hang: true });
    const controller = new AbortController();
    const pending = router.complete([LLAMA, MINI], input, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(providers.openai.calls).toHaveLength(0);
    expect(breakers.for('openrouter').state).toBe('closed');
  });

  it('opens the breaker after repeated failures, skips the provider, and tries it again after the cooldown', async () => {
    const { router, providers, breakers, clock } = setup();
    providers.openrouter.then({ fail: httpFailure('openrouter') }, { fail: httpFailure('openrouter') });
    await router.complete([LLAMA, MINI], input);
    await router.complete([LLAMA, MINI], input);
    expect(breakers.for('openrouter').state).toBe('open');
    const callsBefore = providers.openrouter.calls.length;
    expect((await router.complete([LLAMA, MINI], input)).provider).toBe('openai');
    expect(providers.openrouter.calls).toHaveLength(callsBefore);
    clock.advance(1_000);
    expect((await router.complete([LLAMA, MINI], input)).provider).toBe('openrouter');
    expect(breakers.for('openrouter').state).toBe('closed');
  });

  it('reports circuit_open when every candidate is skipped for an open circuit', async () => {
    const { router, providers } = setup();
    providers.openrouter.always({ fail: httpFailure('openrouter') });
    await expect(router.complete([LLAMA], input)).rejects.toMatchObject({ kind: 'http' });
    await expect(router.complete([LLAMA], input)).rejects.toMatchObject({ kind: 'http' });
    await expect(router.complete([LLAMA], input)).rejects.toMatchObject({ code: 'PROVIDER_ERROR', kind: 'circuit_open' });
  });

  it('falls back on a 4xx without counting it against the provider', async () => {
    const { router, providers, breakers } = setup();
    providers.openrouter.always({ fail: httpFailure('openrouter', 400) });
    for (let i = 0; i < 3; i++) expect((await router.complete([LLAMA, MINI], input)).provider).toBe('openai');
    expect(breakers.for('openrouter').state).toBe('closed');
  });

  it('BYOK: tries only providers the user has a key for, and passes the key', async () => {
    const { router, providers } = setup();
    const result = await router.complete([LLAMA, MINI, FLASH], input, { byokKeys: { google: 'user-key' } });
    expect(result.provider).toBe('google');
    expect(providers.google.calls[0]?.opts.apiKey).toBe('user-key');
    expect(providers.openrouter.calls).toHaveLength(0);
    providers.google.configured = false;
    expect((await router.complete([FLASH], input, { byokKeys: { google: 'user-key' } })).provider).toBe('google');
    await expect(router.complete([LLAMA], input, { byokKeys: { google: 'user-key' } })).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('passes the timeout and signal through to the provider', async () => {
    const { router, providers } = setup();
    const signal = new AbortController().signal;
    await router.complete([LLAMA], input, { timeoutMs: 1234, signal });
    expect(providers.openrouter.calls[0]?.opts).toMatchObject({ timeoutMs: 1234, signal });
  });
});
