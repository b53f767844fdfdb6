import { describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../../src/adapters/outbound/ai/anthropic-provider.js';
import { startFakeAnthropicServer } from '../../support/ai/fake-anthropic-server.js';
import { drain, PLATFORM_KEY, providerContract, serverPerTest } from '../../support/ai/provider-contract.js';

describe('AnthropicProvider against a fake Messages API', () => {
  providerContract({
    startServer: startFakeAnthropicServer,
    makeProvider: (server, o) => new AnthropicProvider({ baseUrl: server.baseUrl, ...o }),
    model: 'anthropic/claude-3-5-haiku-20241022',
    sentKey: (h) => h['x-api-key'] as string | undefined,
  });
});

describe('Anthropic request mapping', () => {
  const t = serverPerTest(startFakeAnthropicServer, (server) => new AnthropicProvider({ baseUrl: server.baseUrl, apiKey: PLATFORM_KEY }));

  const messages = [
    { role: 'system' as const, content: 'Be brief.' },
    { role: 'user' as const, content: 'Hi' },
    { role: 'assistant' as const, content: 'Hello' },
    { role: 'system' as const, content: 'Answer in French.' },
    { role: 'user' as const, content: 'Again' },
  ];

  it('POSTs /v1/messages with x-api-key and anthropic-version, system messages lifted to `system`', async () => {
    await t.provider.complete({ model: 'anthropic/claude-sonnet-4-20250514', messages, temperature: 0.5, topP: 0.8, maxTokens: 300 });
    const req = t.server.lastRequest();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/messages');
    expect(req.headers['x-api-key']).toBe(PLATFORM_KEY);
    expect(req.headers['anthropic-version']).toBe('2023-06-01');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 300,
      system: 'Be brief.\n\nAnswer in French.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Again' },
      ],
      temperature: 0.5,
      top_p: 0.8,
    });
  });

  it('always sends max_tokens (default 1024, configurable) and no system field without system messages', async () => {
    await t.provider.complete({ model: 'anthropic/claude-3-5-haiku-20241022', messages: [{ role: 'user', content: 'Hi' }] });
    expect(t.server.lastRequest().body).toEqual({ model: 'claude-3-5-haiku-20241022', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }] });
    const custom = new AnthropicProvider({ baseUrl: t.server.baseUrl, apiKey: PLATFORM_KEY, defaultMaxTokens: 77 });
    await custom.complete({ model: 'anthropic/claude-3-5-haiku-20241022', messages: [{ role: 'user', content: 'Hi' }] });
    expect(t.server.lastRequest().body.max_tokens).toBe(77);
  });

  it('streams with stream: true, usage from message_start and message_delta, stop reason kept', async () => {
    t.server.setBehaviour({ kind: 'reply', usage: { prompt: 30, completion: 9 } });
    const events = await drain(t.provider.stream({ model: 'anthropic/claude-3-5-haiku-20241022', messages }));
    expect(t.server.lastRequest().body).toMatchObject({ stream: true, system: 'Be brief.\n\nAnswer in French.' });
    expect(events[events.length - 1]).toMatchObject({ type: 'done', finishReason: 'end_turn', usage: { promptTokens: 30, completionTokens: 9, totalTokens: 39 } });
    expect(events[events.length - 1]).toMatchObject({ id: expect.stringMatching(/^msg_/) });
  });

  it('reads the vendor error type into the message (529 overloaded)', async () => {
    t.server.setBehaviour({ kind: 'error', status: 529 });
    await expect(t.provider.complete({ model: 'anthropic/claude-3-5-haiku-20241022', messages })).rejects.toMatchObject({
      kind: 'http',
      status: 529,
      message: 'anthropic: HTTP 529 (overloaded_error)',
      upstreamMessage: 'Overloaded',
      countsAgainstProvider: true,
    });
  });

  it('lists models from GET /v1/models', async () => {
    expect(await t.provider.listModels()).toEqual(['model-a', 'model-b']);
    expect(t.server.lastRequest()).toMatchObject({ method: 'GET', path: '/v1/models' });
  });
});

describe('Anthropic: the prompt counted before the answer', () => {
  const t = serverPerTest(startFakeAnthropicServer, (server) => new AnthropicProvider({ baseUrl: server.baseUrl, apiKey: PLATFORM_KEY }));

  it("when message_start reports the prompt's tokens, then `progress` hears them before any text", async () => {
    t.server.setBehaviour({ kind: 'stall', chunks: ['Hi'], usage: { prompt: 4_321, completion: 0 } });
    const told: number[] = [];
    for await (const e of t.provider.stream({ model: 'anthropic/claude-3-5-haiku-20241022', messages: [{ role: 'user', content: 'Hello' }] }, { progress: { sent: () => undefined, promptTokens: (n) => told.push(n) } })) {
      expect(e).toEqual({ type: 'delta', text: 'Hi' });
      break;
    }
    expect(told).toEqual([4_321]);
  });
});
