import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../../src/adapters/outbound/ai/anthropic-provider.js';
import { GoogleProvider } from '../../../src/adapters/outbound/ai/google-provider.js';
import { OpenAiCompatibleProvider } from '../../../src/adapters/outbound/ai/openai-compatible-provider.js';
import { googleSchema } from '../../../src/adapters/outbound/ai/tools/google-tool-format.js';
import type { AiProvider, ChatMessage, ToolDefinition } from '../../../src/application/ports/ai-provider.port.js';
import { startFakeAnthropicServer } from '../../support/ai/fake-anthropic-server.js';
import type { FakeAiServer } from '../../support/ai/fake-ai-server.js';
import { startFakeGoogleServer } from '../../support/ai/fake-google-server.js';
import { startFakeOpenAiServer } from '../../support/ai/fake-openai-server.js';
import { PLATFORM_KEY } from '../../support/ai/provider-contract.js';

/**
 * Tool calling through each adapter against a fake speaking the vendor's real format: the
 * OpenAI-shaped request (tools, assistant toolCalls, `tool` results) is mapped to the vendor's
 * wire shapes, and the vendor's tool calls come back as ToolCalls with JSON-text arguments.
 */

const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { title: { type: 'string' }, at: { type: 'string', default: 'now' } }, required: ['title'], additionalProperties: false };
const tools: ToolDefinition[] = [{ name: 'calendar__schedule', description: 'Schedule an event.', parameters: schema }];
const conversation: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Book lunch and dinner' },
  {
    role: 'assistant',
    content: 'Booking.',
    toolCalls: [
      { id: 'call_1', name: 'calendar__schedule', arguments: '{"title":"lunch"}' },
      { id: 'call_2', name: 'calendar__schedule', arguments: '{"title":"dinner"}' },
    ],
  },
  { role: 'tool', toolCallId: 'call_1', toolName: 'calendar__schedule', content: '{"eventId":"e1"}' },
  { role: 'tool', toolCallId: 'call_2', toolName: 'calendar__schedule', content: '{"error":"busy","code":"CONFLICT"}' },
];

let server: FakeAiServer;
afterEach(async () => {
  await server.close();
});

async function answerWithCall(provider: AiProvider, model: string) {
  server.setBehaviour({ kind: 'tool-calls', text: 'Let me check.', calls: [{ id: 'vendor-id-1', name: 'calendar__schedule', args: { title: 'tea', at: '5pm' } }] });
  return provider.complete({ model, messages: [{ role: 'user', content: 'Tea?' }], tools });
}

describe('OpenAI format (openai, openrouter, ollama)', () => {
  it('when tools and tool turns are sent, then they travel as `tools`, `tool_calls` and role `tool`', async () => {
    server = await startFakeOpenAiServer({ apiKey: PLATFORM_KEY });
    const provider = new OpenAiCompatibleProvider('openai', { baseUrl: server.baseUrl, apiKey: PLATFORM_KEY });
    await provider.complete({ model: 'openai/gpt-4o-mini', messages: conversation, tools });
    const body = server.lastRequest().body;
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'calendar__schedule', description: 'Schedule an event.', parameters: schema } }]);
    expect(body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: 'Booking.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'calendar__schedule', arguments: '{"title":"lunch"}' } },
          { id: 'call_2', type: 'function', function: { name: 'calendar__schedule', arguments: '{"title":"dinner"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"eventId":"e1"}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"error":"busy","code":"CONFLICT"}' },
    ]);
  });

  it('when the model calls a tool, then the completion carries the call with its JSON arguments', async () => {
    server = await startFakeOpenAiServer({ apiKey: PLATFORM_KEY });
    const provider = new OpenAiCompatibleProvider('openai', { baseUrl: server.baseUrl, apiKey: PLATFORM_KEY });
    const completion = await answerWithCall(provider, 'openai/gpt-4o-mini');
    expect(completion.content).toBe('Let me check.');
    expect(completion.finishReason).toBe('tool_calls');
    expect(completion.toolCalls).toEqual([{ id: 'vendor-id-1', name: 'calendar__schedule', arguments: '{"title":"tea","at":"5pm"}' }]);
  });

  it('when no tools are offered, then the request has no `tools` and a plain answer has no toolCalls', async () => {
    server = await startFakeOpenAiServer({ apiKey: PLATFORM_KEY });
    const provider = new OpenAiCompatibleProvider('openai', { baseUrl: server.baseUrl, apiKey: PLATFORM_KEY });
    const completion = await provider.complete({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], tools: [] });
    expect(server.lastRequest().body).not.toHaveProperty('tools');
    expect(completion.toolCalls).toBeUndefined();
  });
});

describe('Anthropic Messages format', () => {
  it('when tools and tool turns are sent, then they travel as `input_schema` tools, `tool_use` blocks and ONE user turn of `tool_result`s', async () => {
    server = await startFakeAnthropicServer({ apiKey: PLATFORM_KEY });
    const provider = new AnthropicProvider({ baseUrl: server.baseUrl, apiKey: PLATFORM_KEY });
    await provider.complete({ model: 'anthropic/claude-sonnet-4-20250514', messages: conversation, tools });
    const body = server.lastRequest().body;
    expect(body.tools).toEqual([{ name: 'calendar__schedule', description: 'Schedule an event.', input_schema: schema }]);
    expect(body.system).toBe('Be brief.');
    expect(body.messages).toEqual([
      { role: 'user', content: 'Book lunch and dinner' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Booking.' },
          { type: 'tool_use', id: 'call_1', name: 'calendar__schedule', input: { title: 'lunch' } },
          { type: 'tool_use', id: 'call_2', name: 'calendar__schedule', input: { title: 'dinner' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: '{"eventId":"e1"}' },
          { type: 'tool_result', tool_use_id: 'call_2', content: '{"error":"busy","code":"CONFLICT"}' },
        ],
      },
    ]);
  });

  it('when the model answers with a tool_use block, then the completion carries it as a call with JSON-text arguments', async () => {
    server = await startFakeAnthropicServer({ apiKey: PLATFORM_KEY });
    const provider = new AnthropicProvider({ baseUrl: server.baseUrl, apiKey: PLATFORM_KEY });
    const completion = await answerWithCall(provider, 'anthropic/claude-sonnet-4-20250514');
    expect(completion.content).toBe('Let me check.');
    expect(completion.finishReason).toBe('tool_use');
    expect(completion.toolCalls).toEqual([{ id: 'vendor-id-1', name: 'calendar__schedule', arguments: '{"title":"tea","at":"5pm"}' }]);
  });
});

describe('Gemini format', () => {
  it('when tools and tool turns are sent, then they travel as functionDeclarations (schema cleaned), functionCall and functionResponse parts', async () => {
    server = await startFakeGoogleServer({ apiKey: PLATFORM_KEY });
    const provider = new GoogleProvider({ baseUrl: server.baseUrl, apiKey: PLATFORM_KEY });
    await provider.complete({ model: 'google/gemini-2.0-flash', messages: conversation, tools });
    const body = server.lastRequest().body;
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'calendar__schedule', description: 'Schedule an event.', parameters: { type: 'object', properties: { title: { type: 'string' }, at: { type: 'string' } }, required: ['title'] } },
        ],
      },
    ]);
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Book lunch and dinner' }] },
      {
        role: 'model',
        parts: [
          { text: 'Booking.' },
          { functionCall: { name: 'calendar__schedule', args: { title: 'lunch' } } },
          { functionCall: { name: 'calendar__schedule', args: { title: 'dinner' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'calendar__schedule', response: { eventId: 'e1' } } },
          { functionResponse: { name: 'calendar__schedule', response: { error: 'busy', code: 'CONFLICT' } } },
        ],
      },
    ]);
  });

  it('when the model answers with a functionCall part, then the completion carries it with a generated id', async () => {
    server = await startFakeGoogleServer({ apiKey: PLATFORM_KEY });
    const provider = new GoogleProvider({ baseUrl: server.baseUrl, apiKey: PLATFORM_KEY });
    const completion = await answerWithCall(provider, 'google/gemini-2.0-flash');
    expect(completion.content).toBe('Let me check.');
    expect(completion.toolCalls).toHaveLength(1);
    expect(completion.toolCalls![0]).toMatchObject({ name: 'calendar__schedule', arguments: '{"title":"tea","at":"5pm"}' });
    expect(completion.toolCalls![0]!.id).toMatch(/^gen-/);
  });

  it('when a schema nests objects, then unsupported keywords are dropped at every depth but property names are kept', () => {
    expect(googleSchema({ type: 'object', additionalProperties: false, properties: { default: { type: 'object', additionalProperties: false, properties: { x: { type: 'number' } } } } })).toEqual({
      type: 'object',
      properties: { default: { type: 'object', properties: { x: { type: 'number' } } } },
    });
  });
});
