import { randomUUID } from 'node:crypto';
import { startFakeAiServer, sse, type Dialect, type FakeAiServer, type FakeAiServerOptions } from './fake-ai-server.js';

/** Anthropic's error body: `{type: 'error', error: {type, message}, request_id}`. */
function errorBody(status: number): unknown {
  const [type, message] =
    status === 400 ? ['invalid_request_error', 'messages: field required']
    : status === 401 ? ['authentication_error', 'invalid x-api-key']
    : status === 404 ? ['not_found_error', 'model: not found']
    : status === 429 ? ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit']
    : status === 529 ? ['overloaded_error', 'Overloaded']
    : ['api_error', 'Internal server error'];
  return { type: 'error', error: { type, message }, request_id: `req_${randomUUID().replaceAll('-', '')}` };
}

export const anthropicDialect: Dialect = {
  basePath: '',
  route(method, path, body) {
    const p = path.split('?')[0];
    if (method === 'POST' && p === '/v1/messages') return { kind: body?.stream ? 'stream' : 'complete', model: String(body?.model) };
    if (method === 'GET' && p === '/v1/models') return { kind: 'models', model: '' };
    return undefined;
  },
  authError(headers, apiKey) {
    if (headers['x-api-key'] !== apiKey) return { status: 401, body: errorBody(401) };
    if (headers['anthropic-version'] === undefined) {
      return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } } };
    }
    return undefined;
  },
  errorBody,
  completion(model, text, usage) {
    return {
      id: `msg_${randomUUID().replaceAll('-', '')}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.prompt, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: usage.completion },
    };
  },
  toolCallCompletion(model, text, calls, usage) {
    return {
      id: `msg_${randomUUID().replaceAll('-', '')}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [
        ...(text === '' ? [] : [{ type: 'text', text }]),
        ...calls.map((c) => ({ type: 'tool_use', id: c.id ?? `toolu_${randomUUID().replaceAll('-', '').slice(0, 24)}`, name: c.name, input: c.args })),
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: usage.prompt, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: usage.completion },
    };
  },
  streamEvents(model, _chunks, usage) {
    const id = `msg_${randomUUID().replaceAll('-', '')}`;
    return {
      head: [
        sse({ type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.prompt, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 } } }, 'message_start'),
        sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
        sse({ type: 'ping' }, 'ping'),
      ],
      delta: (text) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta'),
      tail: [
        sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
        sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.completion } }, 'message_delta'),
        sse({ type: 'message_stop' }, 'message_stop'),
      ],
    };
  },
  streamError: () => sse({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error'),
  models: (ids) => ({
    data: ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' })),
    has_more: false,
    first_id: ids[0] ?? null,
    last_id: ids[ids.length - 1] ?? null,
  }),
};

/** A fake Anthropic Messages API server. */
export const startFakeAnthropicServer = (options?: FakeAiServerOptions): Promise<FakeAiServer> => startFakeAiServer(anthropicDialect, options);
