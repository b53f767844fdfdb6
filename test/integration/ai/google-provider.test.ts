import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoogleProvider } from '../../../src/adapters/outbound/ai/google-provider.js';
import type { FakeAiServer } from '../../support/ai/fake-ai-server.js';
import { startFakeGoogleServer } from '../../support/ai/fake-google-server.js';
import { drain, PLATFORM_KEY, providerContract } from '../../support/ai/provider-contract.js';

describe('GoogleProvider against a fake Gemini API', () => {
  providerContract({
    startServer: startFakeGoogleServer,
    makeProvider: (server, o) => new GoogleProvider({ baseUrl: server.baseUrl, ...o }),
    model: 'google/gemini-2.0-flash',
    sentKey: (h) => h['x-goog-api-key'] as string | undefined,
  });
});

describe('Gemini request mapping', () => {
  let server: FakeAiServer;
  let provider: GoogleProvider;
  beforeEach(async () => {
    server = await startFakeGoogleServer({ apiKey: PLATFORM_KEY });
    provider = new GoogleProvider({ baseUrl: server.baseUrl, apiKey: PLATFORM_KEY });
  });
  afterEach(async () => {
    await server.close();
  });

  const messages = [
    { role: 'system' as const, content: 'Be brief.' },
    { role: 'user' as const, content: 'Hi' },
    { role: 'assistant' as const, content: 'Hello' },
    { role: 'user' as const, content: 'Again' },
  ];

  it('POSTs :generateContent with x-goog-api-key, roles user/model, systemInstruction and generationConfig', async () => {
    await provider.complete({ model: 'google/gemini-2.5-pro', messages, temperature: 0.1, topP: 0.5, maxTokens: 64 });
    const req = server.lastRequest();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    expect(req.headers['x-goog-api-key']).toBe(PLATFORM_KEY);
    expect(req.path).not.toContain('key=');
    expect(req.body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ text: 'Hello' }] },
        { role: 'user', parts: [{ text: 'Again' }] },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { temperature: 0.1, topP: 0.5, maxOutputTokens: 64 },
    });
  });

  it('omits systemInstruction and generationConfig when there is nothing to send', async () => {
    await provider.complete({ model: 'google/gemini-2.0-flash', messages: [{ role: 'user', content: 'Hi' }] });
    expect(server.lastRequest().body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });

  it('streams from :streamGenerateContent?alt=sse (CRLF-separated events) with usageMetadata and finishReason', async () => {
    server.setBehaviour({ kind: 'reply', chunks: ['Bon', 'jour'], usage: { prompt: 8, completion: 2 } });
    const events = await drain(provider.stream({ model: 'google/gemini-2.0-flash', messages }));
    expect(server.lastRequest().path).toBe('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
    expect(events).toEqual([
      { type: 'delta', text: 'Bon' },
      { type: 'delta', text: 'jour' },
      { type: 'done', id: expect.any(String), finishReason: 'STOP', usage: { promptTokens: 8, completionTokens: 2, totalTokens: 10 } },
    ]);
  });

  it('reads the vendor status into the message (503 UNAVAILABLE)', async () => {
    server.setBehaviour({ kind: 'error', status: 503 });
    await expect(provider.complete({ model: 'google/gemini-2.0-flash', messages })).rejects.toMatchObject({
      kind: 'http',
      status: 503,
      message: 'google: HTTP 503 (UNAVAILABLE)',
    });
  });

  it('lists models from GET /v1beta/models without the models/ prefix', async () => {
    expect(await provider.listModels()).toEqual(['model-a', 'model-b']);
    expect(server.lastRequest()).toMatchObject({ method: 'GET', path: '/v1beta/models' });
  });
});
