import { ProviderUnavailableError } from '../../../application/ai/ai-provider.errors.js';
import type {
  AiProvider,
  ChatCompletion,
  ChatRequest,
  ChatStreamEvent,
  ProviderCallOptions,
  TokenUsage,
} from '../../../application/ports/ai-provider.port.js';
import { arr, at, num, str } from './json-fields.js';
import { withoutVendor } from './model-names.js';
import { DEFAULT_TIMEOUT_MS, ProviderHttp, trimSlash, type HttpProviderOptions, type VendorError } from './provider-http.js';
import { googleContents, googleToolCalls, googleToolConfig, googleTools } from './tools/google-tool-format.js';
import { estimateUsage, generatedId, usageFrom } from './usage.js';

export type GoogleOptions = HttpProviderOptions;

/** Google's error body: `{error: {code, message, status}}`. */
function describeError(body: unknown): VendorError {
  return {
    type: str(at(body, 'error', 'status')),
    message: str(at(body, 'error', 'message')),
    status: num(at(body, 'error', 'code')),
  };
}

/** Thinking tokens (2.5 models) are billed as output, so they count as completion tokens. */
function usageOf(meta: unknown): TokenUsage | undefined {
  const candidates = num(at(meta, 'candidatesTokenCount'));
  const thoughts = num(at(meta, 'thoughtsTokenCount'));
  const completion = candidates === undefined && thoughts === undefined ? undefined : (candidates ?? 0) + (thoughts ?? 0);
  return usageFrom(num(at(meta, 'promptTokenCount')), completion, num(at(meta, 'totalTokenCount')));
}

/** The text parts of the first candidate, joined. */
const candidateText = (body: unknown): string =>
  (arr(at(body, 'candidates', 0, 'content', 'parts')) ?? []).map((p) => str(at(p, 'text')) ?? '').join('');

/**
 * The Gemini API (`v1beta`). Roles map `assistant` → `model`; system messages become
 * `systemInstruction` (one part each, in order). The model name in the path is the catalog id
 * without `google/`.
 */
export class GoogleProvider implements AiProvider {
  readonly name = 'google' as const;
  private readonly http: ProviderHttp;

  constructor(private readonly options: GoogleOptions = {}) {
    const base = trimSlash(options.baseUrl ?? 'https://generativelanguage.googleapis.com');
    this.http = new ProviderHttp(this.name, base, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, describeError);
  }

  isConfigured(): boolean {
    return Boolean(this.options.apiKey);
  }

  async complete(request: ChatRequest, opts: ProviderCallOptions = {}): Promise<ChatCompletion> {
    const key = this.key(opts);
    const path = `/v1beta/models/${encodeURIComponent(withoutVendor(request.model))}:generateContent`;
    const body = await this.http.json({ method: 'POST', path, headers: { 'x-goog-api-key': key }, body: this.body(request), secret: key }, opts);
    if (at(body, 'candidates', 0) === undefined) {
      // a prompt blocked by safety filters is an answer (no candidates, a block reason), not a failure
      const blockReason = str(at(body, 'promptFeedback', 'blockReason'));
      if (blockReason === undefined) throw this.http.badResponse('no candidates');
      return { id: str(at(body, 'responseId')) ?? generatedId(), model: request.model, content: '', usage: usageOf(at(body, 'usageMetadata')) ?? estimateUsage(request.messages, 0), finishReason: blockReason };
    }
    const content = candidateText(body);
    const toolCalls = googleToolCalls(body);
    return {
      id: str(at(body, 'responseId')) ?? generatedId(),
      model: request.model,
      content,
      usage: usageOf(at(body, 'usageMetadata')) ?? estimateUsage(request.messages, content.length),
      finishReason: str(at(body, 'candidates', 0, 'finishReason')),
      ...(toolCalls ? { toolCalls } : {}),
    };
  }

  async *stream(request: ChatRequest, opts: ProviderCallOptions = {}): AsyncGenerator<ChatStreamEvent> {
    const key = this.key(opts);
    const path = `/v1beta/models/${encodeURIComponent(withoutVendor(request.model))}:streamGenerateContent?alt=sse`;
    const headers = { 'x-goog-api-key': key, accept: 'text/event-stream' };
    let id: string | undefined;
    let usage: TokenUsage | undefined;
    let finishReason: string | undefined;
    let chars = 0;
    for await (const event of this.http.sse({ method: 'POST', path, headers, body: this.body(request), secret: key }, opts)) {
      const chunk = this.http.parse(event.data);
      if (at(chunk, 'error') !== undefined) throw this.http.vendorError(chunk, key);
      id ??= str(at(chunk, 'responseId'));
      // each chunk repeats the usage so far; the last one is complete
      usage = usageOf(at(chunk, 'usageMetadata')) ?? usage;
      const prompt = num(at(chunk, 'usageMetadata', 'promptTokenCount'));
      if (prompt !== undefined) opts.progress?.promptTokens(prompt); // for a caller who leaves mid-stream (decision 0419)
      finishReason = str(at(chunk, 'candidates', 0, 'finishReason')) ?? str(at(chunk, 'promptFeedback', 'blockReason')) ?? finishReason;
      const text = candidateText(chunk);
      if (text) {
        chars += text.length;
        yield { type: 'delta', text };
      }
    }
    // Gemini has no end marker: a stream that stops without a finish reason was cut short
    if (finishReason === undefined) throw this.http.badResponse('stream ended without a finishReason');
    yield { type: 'done', id: id ?? generatedId(), usage: usage ?? estimateUsage(request.messages, chars), finishReason };
  }

  async listModels(opts: ProviderCallOptions = {}): Promise<string[]> {
    const key = this.key(opts);
    const body = await this.http.json({ method: 'GET', path: '/v1beta/models', headers: { 'x-goog-api-key': key }, secret: key }, opts);
    const models = arr(at(body, 'models'));
    if (!models) throw this.http.badResponse('no models[]');
    return models
      .map((m) => str(at(m, 'name')))
      .filter((n): n is string => n !== undefined)
      .map((n) => (n.startsWith('models/') ? n.slice('models/'.length) : n));
  }

  private key(opts: ProviderCallOptions): string {
    const key = opts.apiKey || this.options.apiKey;
    if (!key) throw new ProviderUnavailableError([this.name]);
    return key;
  }

  private body(request: ChatRequest): Record<string, unknown> {
    const system = request.messages.filter((m) => m.role === 'system');
    const generationConfig = {
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.topP === undefined ? {} : { topP: request.topP }),
      ...(request.maxTokens === undefined ? {} : { maxOutputTokens: request.maxTokens }),
      ...(request.stop?.length ? { stopSequences: request.stop } : {}),
      ...(request.responseFormat === 'json' ? { responseMimeType: 'application/json' } : {}),
    };
    return {
      contents: googleContents(request.messages),
      ...(request.tools?.length ? { tools: googleTools(request.tools), ...(request.toolChoice ? { toolConfig: googleToolConfig(request.toolChoice) } : {}) } : {}),
      ...(system.length > 0 ? { systemInstruction: { parts: system.map((m) => ({ text: m.content })) } } : {}),
      ...(Object.keys(generationConfig).length > 0 ? { generationConfig } : {}),
    };
  }
}
