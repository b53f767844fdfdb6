import { describe, expect, it } from 'vitest';
import { createAiProviders } from '../../../src/adapters/outbound/ai/create-ai-providers.js';
import { AI_PROVIDER_NAMES } from '../../../src/domain/ai/ai-model.js';

describe('createAiProviders', () => {
  it('builds all five providers in order; only those with a key (ollama: a base URL) are configured', () => {
    const providers = createAiProviders({ openai: { apiKey: 'k' }, ollama: { baseUrl: 'http://127.0.0.1:11434/v1' } });
    expect(providers.map((p) => p.name)).toEqual([...AI_PROVIDER_NAMES]);
    expect(Object.fromEntries(providers.map((p) => [p.name, p.isConfigured()]))).toEqual({
      openrouter: false,
      openai: true,
      anthropic: false,
      google: false,
      ollama: true,
    });
  });
});
