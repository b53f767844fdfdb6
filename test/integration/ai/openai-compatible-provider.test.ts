import { describe, expect, it } from 'vitest';
import { OpenAiCompatibleProvider } from '../../../src/adapters/outbound/ai/openai-compatible-provider.js';
import { CONVERSATION, drain, PLATFORM_KEY, providerContract, serverPerTest } from '../../support/ai/provider-contract.js';
import { startFakeOpenAiServer } from '../../support/ai/fake-openai-server.js';

const bearer = (h: Record<string, string | string[] | undefined>) => /^Bearer (.*)$/.exec(String(h.authorization ?? ''))?.[1];

describe('OpenAiCompatibleProvider (openai) against a fake OpenAI server', () => {
  providerContract({
    startServer: startFakeOpenAiServer,
    makeProvider: (server, o) => new OpenAiCompatibleProvider('openai', { baseUrl: server.baseUrl, ...o }),
    model: 'openai/gpt-4o-mini',
    sentKey: bearer,
  });
});

describe('OpenAiCompatibleProvider (openrouter) against a fake OpenAI-format server', () => {
  providerContract({
    startServer: startFakeOpenAiServer,
    makeProvider: (server, o) => new OpenAiCompatibleProvider('openrouter', { baseUrl: server.baseUrl, ...o }),
    model: 'deepseek/deepseek-r1',
    sentKey: bearer,
  });
});

describe('OpenAI-compatible request mapping', () => {
  const t = serverPerTest(startFakeOpenAiServer, undefined, {});

  it('openai: POSTs {base}/chat/completions with Bearer key, the model without vendor and max_completion_tokens', async () => {
    const p = new OpenAiCompatibleProvider('openai', { baseUrl: t.server.baseUrl, apiKey: PLATFORM_KEY });
    await p.complete({ model: 'openai/gpt-4o', messages: CONVERSATION, temperature: 0.3, topP: 0.9, maxTokens: 50 });
    const req = t.server.lastRequest();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${PLATFORM_KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual({ model: 'gpt-4o', messages: CONVERSATION, temperature: 0.3, top_p: 0.9, max_completion_tokens: 50 });
  });

  it('openrouter: sends the full catalog id, max_tokens and the attribution headers', async () => {
    const p = new OpenAiCompatibleProvider('openrouter', { baseUrl: t.server.baseUrl, apiKey: PLATFORM_KEY, headers: { 'X-Title': 'Agent Host' } });
    await p.complete({ model: 'meta-llama/llama-3.3-70b-instruct', messages: CONVERSATION, maxTokens: 10 });
    const req = t.server.lastRequest();
    expect(req.body).toEqual({ model: 'meta-llama/llama-3.3-70b-instruct', messages: CONVERSATION, max_tokens: 10 });
    expect(req.headers['x-title']).toBe('Agent Host');
  });

  it('streams with stream: true and include_usage, accepting text/event-stream', async () => {
    const p = new OpenAiCompatibleProvider('openai', { baseUrl: t.server.baseUrl, apiKey: PLATFORM_KEY });
    await drain(p.stream({ model: 'openai/gpt-4o-mini', messages: CONVERSATION }));
    const req = t.server.lastRequest();
    expect(req.body).toMatchObject({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true } });
    expect(req.headers.accept).toBe('text/event-stream');
  });

  it('ollama: configured by its base URL alone, sends no auth header and drops the vendor prefix', async () => {
    expect(new OpenAiCompatibleProvider('ollama', {}).isConfigured()).toBe(false);
    const p = new OpenAiCompatibleProvider('ollama', { baseUrl: t.server.baseUrl });
    expect(p.isConfigured()).toBe(true);
    const completion = await p.complete({ model: 'ollama/llama3.2', messages: CONVERSATION });
    expect(completion.content).toBe('Hello, world!');
    expect(t.server.lastRequest().headers.authorization).toBeUndefined();
    expect(t.server.lastRequest().body.model).toBe('llama3.2');
    expect(await p.listModels()).toEqual(['model-a', 'model-b']);
    expect(t.server.lastRequest().path).toBe('/v1/models');
  });

  it('accepts a base URL with a trailing slash', async () => {
    const p = new OpenAiCompatibleProvider('openai', { baseUrl: `${t.server.baseUrl}/`, apiKey: PLATFORM_KEY });
    await p.listModels();
    expect(t.server.lastRequest().path).toBe('/v1/models');
  });
});
