import { randomUUID } from 'node:crypto';
import { startFakeAiServer, sse, type Dialect, type FakeAiServer, type FakeAiServerOptions, type FakeUsage } from './fake-ai-server.js';

/** Google's error body: `{error: {code, message, status}}`. */
function errorBody(status: number): unknown {
  const [state, message] =
    status === 400 ? ['INVALID_ARGUMENT', 'Request contains an invalid argument.']
    : status === 403 ? ['PERMISSION_DENIED', "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."]
    : status === 404 ? ['NOT_FOUND', 'models/unknown is not found for API version v1beta, or is not supported for generateContent.']
    : status === 429 ? ['RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).']
    : status === 503 ? ['UNAVAILABLE', 'The model is overloaded. Please try again later.']
    : ['INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting'];
  return { error: { code: status, message, status: state } };
}

const usageMetadata = (u: FakeUsage, completion = u.completion) => ({
  promptTokenCount: u.prompt,
  candidatesTokenCount: completion,
  totalTokenCount: u.prompt + completion,
  promptTokensDetails: [{ modality: 'TEXT', tokenCount: u.prompt }],
});

// Google separates SSE events with CRLF, so the fake does too
const crlf = (data: unknown) => sse(data, undefined, '\r\n');

export const googleDialect: Dialect = {
  basePath: '',
  route(method, path) {
    const p = path.split('?')[0] ?? '';
    const call = /^\/v1beta\/models\/([^:/]+):(generateContent|streamGenerateContent)$/.exec(p);
    if (method === 'POST' && call) {
      const stream = call[2] === 'streamGenerateContent';
      if (stream && !path.includes('alt=sse')) return undefined; // without alt=sse Google streams a JSON array
      return { kind: stream ? 'stream' : 'complete', model: decodeURIComponent(call[1]!) };
    }
    if (method === 'GET' && p === '/v1beta/models') return { kind: 'models', model: '' };
    return undefined;
  },
  authError(headers, apiKey) {
    const given = headers['x-goog-api-key'];
    if (given === undefined) return { status: 403, body: errorBody(403) };
    if (given === apiKey) return undefined;
    return {
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } }],
        },
      },
    };
  },
  errorBody,
  completion(model, text, usage) {
    return {
      candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', avgLogprobs: -0.1 }],
      usageMetadata: usageMetadata(usage),
      modelVersion: model,
      responseId: randomUUID(),
    };
  },
  toolCallCompletion(model, text, calls, usage) {
    return {
      candidates: [
        {
          content: { parts: [...(text === '' ? [] : [{ text }]), ...calls.map((c) => ({ functionCall: { name: c.name, args: c.args } }))], role: 'model' },
          finishReason: 'STOP',
          avgLogprobs: -0.1,
        },
      ],
      usageMetadata: usageMetadata(usage),
      modelVersion: model,
      responseId: randomUUID(),
    };
  },
  streamEvents(model, _chunks, usage) {
    const responseId = randomUUID();
    return {
      head: [],
      delta: (text) => crlf({ candidates: [{ content: { parts: [{ text }], role: 'model' } }], usageMetadata: { promptTokenCount: usage.prompt, totalTokenCount: usage.prompt }, modelVersion: model, responseId }),
      tail: [crlf({ candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP' }], usageMetadata: usageMetadata(usage), modelVersion: model, responseId })],
    };
  },
  streamError: () => crlf(errorBody(503)),
  models: (ids) => ({
    models: ids.map((id) => ({ name: `models/${id}`, version: '001', displayName: id, inputTokenLimit: 1_048_576, outputTokenLimit: 8192, supportedGenerationMethods: ['generateContent', 'countTokens'] })),
  }),
};

/** A fake Gemini API server (`v1beta`). */
export const startFakeGoogleServer = (options?: FakeAiServerOptions): Promise<FakeAiServer> => startFakeAiServer(googleDialect, options);
