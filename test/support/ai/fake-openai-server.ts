import { randomUUID } from 'node:crypto';
import { startFakeAiServer, sse, type Dialect, type FakeAiServer, type FakeAiServerOptions } from './fake-ai-server.js';

/** OpenAI's documented error bodies (`{error: {message, type, param, code}}`) by status. */
function errorBody(status: number): unknown {
  const [type, code, message] =
    status === 429 ? ['requests', 'rate_limit_exceeded', 'Rate limit reached for requests']
    : status === 404 ? ['invalid_request_error', 'model_not_found', 'The model does not exist or you do not have access to it.']
    : status === 400 ? ['invalid_request_error', null, "Invalid value for 'messages'"]
    : status === 503 ? ['server_error', null, 'The engine is currently overloaded, please try again later']
    : ['server_error', null, 'The server had an error while processing your request. Sorry about that!'];
  return { error: { message, type, param: null, code } };
}

/** OpenAI echoes a masked key in its 401 message; the adapter must scrub it. */
const masked = (key: string) => (key.length > 8 ? `${key.slice(0, 3)}*********${key.slice(-4)}` : '***');

export const openAiDialect: Dialect = {
  basePath: '/v1',
  route(method, path, body) {
    const p = path.split('?')[0] ?? '';
    if (method === 'POST' && p.endsWith('/chat/completions')) return { kind: body?.stream ? 'stream' : 'complete', model: String(body?.model) };
    if (method === 'GET' && p.endsWith('/models')) return { kind: 'models', model: '' };
    return undefined;
  },
  authError(headers, apiKey) {
    const given = /^Bearer (.*)$/.exec(headers.authorization ?? '')?.[1];
    if (given === apiKey) return undefined;
    const message = given
      ? `Incorrect API key provided: ${masked(given)}. You can find your API key at https://platform.openai.com/account/api-keys.`
      : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
    return { status: 401, body: { error: { message, type: 'invalid_request_error', param: null, code: given ? 'invalid_api_key' : null } } };
  },
  errorBody,
  completion(model, text, usage) {
    return {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
      system_fingerprint: 'fp_fake',
    };
  },
  toolCallCompletion(model, text, calls, usage) {
    return {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text === '' ? null : text,
            refusal: null,
            tool_calls: calls.map((c) => ({ id: c.id ?? `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })),
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
      system_fingerprint: 'fp_fake',
    };
  },
  streamEvents(model, _chunks, usage) {
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (choices: unknown[], extra: object = { usage: null }) =>
      sse({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_fake', choices, ...extra });
    return {
      head: [chunk([{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }])],
      delta: (text) => chunk([{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }]),
      tail: [
        chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]),
        // stream_options.include_usage: a last chunk with no choices carries the usage
        chunk([], { usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion } }),
        sse('[DONE]'),
      ],
    };
  },
  // OpenRouter's mid-stream error shape: a chunk with an `error` object
  streamError: () => sse({ id: 'gen-err', object: 'chat.completion.chunk', error: { code: 502, message: 'Upstream provider error' }, choices: [] }),
  models: (ids) => ({ object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })) }),
};

/** A fake OpenAI Chat Completions server (also stands in for OpenRouter and Ollama's `/v1`). */
export const startFakeOpenAiServer = (options?: FakeAiServerOptions): Promise<FakeAiServer> => startFakeAiServer(openAiDialect, options);
