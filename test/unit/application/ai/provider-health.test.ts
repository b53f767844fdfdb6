import { ManualClock } from '../../../fakes/manual-clock.js';
import { describe, expect, it } from 'vitest';
import { ProviderHealth } from '../../../../src/application/ai/provider-health.js';
import { FakeAiProvider, httpFailure } from '../../../support/ai/fake-ai-provider.js';

function setup(ttlMs = 30_000) {
  const clock = new ManualClock(0);
  const providers = [new FakeAiProvider('openrouter'), new FakeAiProvider('openai'), new FakeAiProvider('ollama')];
// 250 ms: short enough that the hanging provider costs little, long enough that a loaded machine never times out the healthy fakes.
  return { clock, providers, health: new ProviderHealth(providers, clock, { ttlMs, timeoutMs: 250 }) };
}
const listCalls = (p: FakeAiProvider) => p.calls.filter((c) => c.method === 'listModels').length;

describe('ProviderHealth', () => {
  it('is healthy when every configured provider lists its models', async () => {
    const { health } = setup();
    expect(await health.check()).toMatchObject({ status: 'healthy', providers: { openrouter: true, openai: true, ollama: true } });
  });

  it('is degraded when a configured provider fails or times out, naming it false', async () => {
    const { health, providers } = setup();
    providers[0]!.health = httpFailure('openrouter', 500);
    providers[1]!.health = 'hang';
    const report = await health.check();
    expect(report.status).toBe('degraded');
    expect(report.providers).toEqual({ openrouter: false, openai: false, ollama: true });
  });

  it('uses a short timeout on the health call', async () => {
    const { health, providers } = setup();
    await health.check();
    expect(providers[0]!.calls[0]?.opts.timeoutMs).toBe(250);
  });

  it('reports an unconfigured provider false without degrading, and never calls it', async () => {
    const { health, providers } = setup();
    providers[2]!.configured = false;
    expect(await health.check()).toMatchObject({ status: 'healthy', providers: { ollama: false } });
    expect(listCalls(providers[2]!)).toBe(0);
  });

  it('is degraded when no provider is configured at all', async () => {
    const { health, providers } = setup();
    for (const p of providers) p.configured = false;
    expect((await health.check()).status).toBe('degraded');
  });

  it('caches the result for the TTL and shares one check between concurrent callers', async () => {
    const { health, providers, clock } = setup(1_000);
    await Promise.all([health.check(), health.check(), health.check()]);
    expect(listCalls(providers[0]!)).toBe(1);
    clock.advance(999);
    await health.check();
    expect(listCalls(providers[0]!)).toBe(1);
    clock.advance(1);
    await health.check();
    expect(listCalls(providers[0]!)).toBe(2);
  });
});
