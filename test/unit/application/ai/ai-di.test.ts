import { container } from 'tsyringe';
import { describe, expect, it } from 'vitest';
import { AI_CLOCK } from '../../../../src/application/ai/ai-clock.js';
import { ChatRouter } from '../../../../src/application/ai/chat-router.js';
import { CIRCUIT_BREAKER_SETTINGS, CircuitBreakers, DEFAULT_BREAKER_SETTINGS } from '../../../../src/application/ai/circuit-breaker.js';
import { DEFAULT_PROVIDER_HEALTH_SETTINGS, PROVIDER_HEALTH_SETTINGS, ProviderHealth } from '../../../../src/application/ai/provider-health.js';
import { AI_PROVIDERS } from '../../../../src/application/ports/ai-provider.port.js';
import { findModel } from '../../../../src/domain/ai/model-catalog.js';
import { FakeAiProvider } from '../../../support/ai/fake-ai-provider.js';

describe('AI layer wiring', () => {
  it('resolves the router and the health check from a container with the tokens registered', async () => {
    const child = container.createChildContainer();
    child.register(AI_PROVIDERS, { useValue: [new FakeAiProvider('openai')] });
    child.register(AI_CLOCK, { useValue: { now: () => 0 } });
    child.register(CIRCUIT_BREAKER_SETTINGS, { useValue: DEFAULT_BREAKER_SETTINGS });
    child.register(PROVIDER_HEALTH_SETTINGS, { useValue: DEFAULT_PROVIDER_HEALTH_SETTINGS });
    child.registerSingleton(CircuitBreakers);
    child.registerSingleton(ProviderHealth);
    const router = child.resolve(ChatRouter);
    const result = await router.complete([findModel('openai/gpt-4o-mini')!], { messages: [{ role: 'user', content: 'hi' }] });
    expect(result.provider).toBe('openai');
    expect(child.resolve(ProviderHealth)).toBe(child.resolve(ProviderHealth));
    expect((await child.resolve(ProviderHealth).check()).status).toBe('healthy');
  });
});
