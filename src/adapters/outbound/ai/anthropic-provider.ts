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
import { anthropicMessages, anthropicToolCalls, anthropicToolChoice, anthropicTools } from './tools/anthropic-tool-format.js';
import { estimateUsage, generatedId } from './usage.js';

export interface AnthropicOptions extends HttpProviderOptions {
  /** The Messages API requires `max_tokens`; used when the request names none. Default 1024. */
  defaultMaxTokens?: number;
}

const API_VERSION = '2023-06-01';

/** Anthropic's error body: `{type: 'error', error: {type, message}}`. */
function describeError(body: unknown): VendorError {
  return { type: str(at(body, 'error', 'type')), message: str(at(body, 'error', 'message')) };
}

/** Prompt tokens include cache writes and reads, which Anthropic counts apart but bills as input. */
function inputTokens(usage: unknown): number | undefined {
  const base = num(at(usage, 'input_tokens'));
  if (base === undefined) return undefined;
  return base + (num(at(usage, 'cache_creation_input_tokens')) ?? 0) + (num(at(usage, 'cache_read_input_tokens')) ?? 0);
}

const toUsage = (prompt: number, completion: number): TokenUsage => ({
  promptTokens: prompt,
  completionTokens: completion,
  totalTokens: prompt + completion,
});

/**
 * Anthropic's Messages API. System messages go into the top-level `system` field (joined by a
 * blank line, in order); the rest keep their order and roles. The model name is the catalog id
 * without `anthropic/`.
 */
export class AnthropicProvider implements AiProvider {
  readonly name = 'anthropic' as const;
  private readonly http: ProviderHttp;

  constructor(private readonly options: AnthropicOptions = {}) {
    const base = trimSlash(options.baseUrl ?? 'https://api.anthropic.com');
    this.http = new ProviderHttp(this.name, base, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, describeError);
  }

  isConfigured(): boolean {
    return Boolean(this.options.apiKey);
  }

  async complete(request: ChatRequest, opts: ProviderCallOptions = {}): Promise<ChatCompletion> {
    const key = this.key(opts);
    const body = await this.http.json(
      { method: 'POST', path: '/v1/messages', headers: this.headers(key), body: this.body(request, false), secret: key },
      opts,
    );
    const blocks = arr(at(body, 'content'));
    if (!blocks) throw this.http.badResponse('no content[]');
    const content = blocks.map((b) => (at(b, 'type') === 'text' ? (str(at(b, 'text')) ?? '') : '')).join('');
    const prompt = inputTokens(at(body, 'usage'));
    const completion = num(at(body, 'usage', 'output_tokens'));
    const toolCalls = anthropicToolCalls(blocks);
    return {
      id: str(at(body, 'id')) ?? generatedId(),
      model: request.model,
      content,
      usage: prompt === undefined || completion === undefined
        ? estimateUsage(request.messages, content.length)
        : toUsage(prompt, completion),
      finishReason: str(at(body, 'stop_reason')),
      ...(toolCalls ? { toolCalls } : {}),
    };
  }

  async *stream(request: ChatRequest, opts: ProviderCallOptions = {}): AsyncGenerator<ChatStreamEvent> {
    const key = this.key(opts);
    const headers = { ...this.headers(key), accept: 'text/event-stream' };
    let id: string | undefined;
    let prompt: number | undefined;
    let completion: number | undefined;
    let finishReason: string | undefined;
    let chars = 0;
    let stopped = false;
    const req = { method: 'POST' as const, path: '/v1/messages', headers, body: this.body(request, true), secret: key };
    for await (const event of this.http.sse(req, opts)) {
      if (stopped) continue;
      const data = this.http.parse(event.data);
      // the `event:` name and the data's `type` agree; the data is authoritative
      switch (str(at(data, 'type')) ?? event.event) {
        case 'message_start':
          id = str(at(data, 'message', 'id'));
          prompt = inputTokens(at(data, 'message', 'usage'));
          completion = num(at(data, 'message', 'usage', 'output_tokens'));
          // known before any text: what a caller who leaves now is charged for (decision 0419)
          if (prompt !== undefined) opts.progress?.promptTokens(prompt);
          break;
        case 'content_block_delta': {
          const text = at(data, 'delta', 'type') === 'text_delta' ? str(at(data, 'delta', 'text')) : undefined;
          if (text) {
            chars += text.length;
            yield { type: 'delta', text };
          }
          break;
        }
        case 'message_delta':
          // output_tokens here is cumulative for the whole message
          completion = num(at(data, 'usage', 'output_tokens')) ?? completion;
          prompt = inputTokens(at(data, 'usage')) ?? prompt;
          finishReason = str(at(data, 'delta', 'stop_reason')) ?? finishReason;
          break;
        case 'message_stop':
          stopped = true;
          break;
        case 'error':
          throw this.http.vendorError(data, key);
        default:
          // ping, content_block_start/stop and event types added later carry nothing we need
          break;
      }
    }
    if (!stopped) throw this.http.badResponse('stream ended before message_stop');
    const usage = prompt === undefined || completion === undefined
      ? estimateUsage(request.messages, chars)
      : toUsage(prompt, completion);
    yield { type: 'done', id: id ?? generatedId(), usage, finishReason };
  }

  async listModels(opts: ProviderCallOptions = {}): Promise<string[]> {
    const key = this.key(opts);
    const body = await this.http.json({ method: 'GET', path: '/v1/models', headers: this.headers(key), secret: key }, opts);
    const data = arr(at(body, 'data'));
    if (!data) throw this.http.badResponse('no data[]');
    return data.map((m) => str(at(m, 'id'))).filter((id): id is string => id !== undefined);
  }

  private key(opts: ProviderCallOptions): string {
    const key = opts.apiKey || this.options.apiKey;
    if (!key) throw new ProviderUnavailableError([this.name]);
    return key;
  }

  private headers(key: string): Record<string, string> {
    return { 'x-api-key': key, 'anthropic-version': API_VERSION };
  }

  private body(request: ChatRequest, stream: boolean): Record<string, unknown> {
    const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content);
    return {
      model: withoutVendor(request.model),
      max_tokens: request.maxTokens ?? this.options.defaultMaxTokens ?? 1024,
      ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
      messages: anthropicMessages(request.messages),
      ...(request.tools?.length ? { tools: anthropicTools(request.tools), ...(request.toolChoice ? { tool_choice: anthropicToolChoice(request.toolChoice) } : {}) } : {}),
      ...(request.stop?.length ? { stop_sequences: request.stop } : {}),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.topP === undefined ? {} : { top_p: request.topP }),
      ...(stream ? { stream: true } : {}),
    };
  }
}
