import { describe, expect, it } from 'vitest';
import { GoogleProvider } from '../../../src/adapters/outbound/ai/google-provider.js';
import { startFakeGoogleServer } from '../../support/ai/fake-google-server.js';
import { CONVERSATION, drain, PLATFORM_KEY, providerContract, serverPerTest } from '../../support/ai/provider-contract.js';

describe('GoogleProvider against a fake Gemini API', () => {
  providerContract({
    startServer: startFakeGoogleServer,
    makeProvider: (server, o) => new GoogleProvider({ baseUrl: server.baseUrl, ...o }),
    model: 'google/gemini-2.0-flash',
    sentKey: (h) => h['x-goog-api-key'] as string | undefined,
  });
});

describe('Gemini request mapping', () => {
  const t = serverPerTest(startFakeGoogleServer, (server) => new GoogleProvider({ baseUrl: server.baseUrl, apiKey: PLATFORM_KEY }));

  it('POSTs :generateContent with x-goog-api-key, roles user/model, systemInstruction and generationConfig', async () => {
    await t.provider.complete({ model: 'google/gemini-2.5-pro', messages: CONVERSATION, temperature: 0.1, topP: 0.5, maxTokens: 64 });
    const req = t.server.lastRequest();
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
    await t.provider.complete({ model: 'google/gemini-2.0-flash', messages: [{ role: 'user', content: 'Hi' }] });
    expect(t.server.lastRequest().body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });

  it('streams from :streamGenerateContent?alt=sse (CRLF-separated events) with usageMetadata and finishReason', async () => {
    t.server.setBehaviour({ kind: 'reply', chunks: ['Bon', 'jour'], usage: { prompt: 8, completion: 2 } });
    const events = await drain(t.provider.stream({ model: 'google/gemini-2.0-flash', messages: CONVERSATION }));
    expect(t.server.lastRequest().path).toBe('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
    expect(events).toEqual([
      { type: 'delta', text: 'Bon' },
      { type: 'delta', text: 'jour' },
      { type: 'done', id: expect.any(String), finishReason: 'STOP', usage: { promptTokens: 8, completionTokens: 2, totalTokens: 10 } },
    ]);
  });

  it('reads the vendor status into the message (503 UNAVAILABLE)', async () => {
    t.server.setBehaviour({ kind: 'error', status: 503 });
    await expect(t.provider.complete({ model: 'google/gemini-2.0-flash', messages: CONVERSATION })).rejects.toMatchObject({
      kind: 'http',
      status: 503,
      message: 'google: HTTP 503 (UNAVAILABLE)',
    });
  });

  it('lists models from GET /v1beta/models without the models/ prefix', async () => {
    expect(await t.provider.listModels()).toEqual(['model-a', 'model-b']);
    expect(t.server.lastRequest()).toMatchObject({ method: 'GET', path: '/v1beta/models' });
  });
});
