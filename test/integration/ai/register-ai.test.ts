import { container } from 'tsyringe';
import { afterAll, describe, expect, it } from 'vitest';
import { ChatRouter } from '../../../src/application/ai/chat-router.js';
import { CircuitBreakers } from '../../../src/application/ai/circuit-breaker.js';
import { ProviderHealth } from '../../../src/application/ai/provider-health.js';
import { AI_PROVIDERS } from '../../../src/application/ports/ai-provider.port.js';
import { CLOCK, systemClock } from '../../../src/application/ports/clock.port.js';
import { loadConfig } from '../../../src/bootstrap/config.js';
import { registerAi } from '../../../src/bootstrap/register-ai.js';
import { findModel } from '../../../src/domain/ai/model-catalog.js';
import { startFakeOpenAiServer } from '../../support/ai/fake-openai-server.js';

const fake = await startFakeOpenAiServer({ apiKey: 'sk-platform-key', models: ['gpt-4o-mini'] });
afterAll(() => fake.close());

/** The composition the service runs: registerAi itself, from a configuration, not a hand-made container. */
function wiredContainer() {
  const child = container.createChildContainer();
  child.register(CLOCK, { useValue: systemClock }); // container.ts registers the one clock
  registerAi(
    child,
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: '/nonexistent-never-written',
      JWT_SECRET: 'register-ai-test-secret-register-ai-test',
      COOKIE_SECRET: 'register-ai-test-cookie-register-ai-test',
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      OPENAI_API_KEY: 'sk-platform-key',
      OPENAI_BASE_URL: fake.baseUrl,
    }),
  );
  return child;
}

describe('AI layer wiring (register-ai.ts)', () => {
  it('when only OpenAI is configured, then the router calls it with the platform key and the other four are unconfigured', async () => {
    const c = wiredContainer();
    const providers = c.resolve(AI_PROVIDERS);
    expect(providers.filter((p) => p.isConfigured()).map((p) => p.name)).toEqual(['openai']);
    const result = await c.resolve(ChatRouter).complete([findModel('openai/gpt-4o-mini')!], { messages: [{ role: 'user', content: 'hi' }] });
    expect(result.provider).toBe('openai');
    expect(fake.lastRequest().headers.authorization).toBe('Bearer sk-platform-key');
  });

  it('when resolved twice, then the breakers and the health cache are one per container (process singletons)', async () => {
    const c = wiredContainer();
    expect(c.resolve(CircuitBreakers)).toBe(c.resolve(CircuitBreakers));
    expect(c.resolve(ProviderHealth)).toBe(c.resolve(ProviderHealth));
    expect(c.resolve(ChatRouter)).toBe(c.resolve(ChatRouter));
    const health = await c.resolve(ProviderHealth).check();
    expect(health.providers).toEqual({ openrouter: false, openai: true, anthropic: false, google: false, ollama: false });
  });
});
