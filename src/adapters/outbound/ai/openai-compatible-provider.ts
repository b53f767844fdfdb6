import { ProviderUnavailableError } from '../../../application/ai/ai-provider.errors.js';
import type {
  AiProvider,
  ChatCompletion,
  ChatRequest,
  ChatStreamEvent,
  ProviderCallOptions,
} from '../../../application/ports/ai-provider.port.js';
import type { AudioProvider, SpeechRequest, Transcription, TranscriptionRequest } from '../../../application/ports/audio-provider.port.js';
import { arr, at, num, str } from './json-fields.js';
import { withoutVendor } from './model-names.js';
import { DEFAULT_TIMEOUT_MS, ProviderHttp, trimSlash, type HttpProviderOptions, type VendorError } from './provider-http.js';
import { openAiMessage, openAiToolCalls, openAiToolChoice, openAiTools } from './tools/openai-tool-format.js';
import { estimateUsage, generatedId, usageFrom } from './usage.js';

export type OpenAiCompatibleName = 'openrouter' | 'openai' | 'ollama';

export interface OpenAiCompatibleOptions extends HttpProviderOptions {
  /** Extra headers on every request, e.g. OpenRouter's `HTTP-Referer` and `X-Title` attribution. */
  headers?: Record<string, string>;
}

interface Traits {
  readonly defaultBaseUrl: string | undefined;
  /** Ollama runs without a key: it is configured by its base URL alone. */
  readonly needsKey: boolean;
  /** OpenRouter's model ids are the catalog's `<vendor>/<model>`; the others drop the vendor. */
  readonly modelName: (catalogId: string) => string;
  /** OpenAI deprecated `max_tokens` for `max_completion_tokens`; OpenRouter and Ollama take `max_tokens`. */
  readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
}

const TRAITS: Readonly<Record<OpenAiCompatibleName, Traits>> = {
  openrouter: { defaultBaseUrl: 'https://openrouter.ai/api/v1', needsKey: true, modelName: (id) => id, maxTokensField: 'max_tokens' },
  openai: { defaultBaseUrl: 'https://api.openai.com/v1', needsKey: true, modelName: withoutVendor, maxTokensField: 'max_completion_tokens' },
  ollama: { defaultBaseUrl: undefined, needsKey: false, modelName: withoutVendor, maxTokensField: 'max_tokens' },
};

/** OpenAI's error body: `{error: {message, type, code}}` (OpenRouter: `code` is the HTTP status). */
function describeError(body: unknown): VendorError {
  const code = at(body, 'error', 'code');
  return {
    type: str(at(body, 'error', 'type')) ?? str(code),
    message: str(at(body, 'error', 'message')),
    status: num(code),
  };
}

/** OpenAI's audio models: `whisper-1` is the one that answers `verbose_json`, which carries the duration metered. */
const SPEECH_MODEL = 'tts-1';
const TRANSCRIPTION_MODEL = 'whisper-1';

/** MIME types of the transcription upload by extension (the vendor reads the extension; the type is courtesy). */
const AUDIO_TYPES: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg', mpeg: 'audio/mpeg', mpga: 'audio/mpeg', mp4: 'audio/mp4', m4a: 'audio/mp4',
  wav: 'audio/wav', webm: 'audio/webm', ogg: 'audio/ogg', flac: 'audio/flac',
};

/**
 * The OpenAI Chat Completions wire format, spoken by OpenAI itself, OpenRouter and Ollama's
 * `/v1` endpoint. `baseUrl` includes the version segment (`https://api.openai.com/v1`).
 * It also speaks OpenAI's audio endpoints (AudioProvider); only the `openai` instance is
 * registered for them, as OpenRouter has none.
 */
export class OpenAiCompatibleProvider implements AiProvider, AudioProvider {
  private readonly traits: Traits;
  private readonly http: ProviderHttp | undefined;

  constructor(
    readonly name: OpenAiCompatibleName,
    private readonly options: OpenAiCompatibleOptions = {},
  ) {
    this.traits = TRAITS[name];
    const base = options.baseUrl ?? this.traits.defaultBaseUrl;
    this.http = base === undefined
      ? undefined
      : new ProviderHttp(name, trimSlash(base), options.timeoutMs ?? DEFAULT_TIMEOUT_MS, describeError);
  }

  isConfigured(): boolean {
    return this.http !== undefined && (!this.traits.needsKey || Boolean(this.options.apiKey));
  }

  async complete(request: ChatRequest, opts: ProviderCallOptions = {}): Promise<ChatCompletion> {
    const { http, key } = this.ready(opts);
    const body = await http.json(
      { method: 'POST', path: '/chat/completions', headers: this.headers(key), body: this.body(request, false), secret: key },
      opts,
    );
    const message = at(body, 'choices', 0, 'message');
    if (message === undefined) throw http.badResponse('no choices[0].message');
    const content = str(at(message, 'content')) ?? '';
    const toolCalls = openAiToolCalls(message);
    return {
      id: str(at(body, 'id')) ?? generatedId(),
      model: request.model,
      content,
      usage: this.usage(at(body, 'usage')) ?? estimateUsage(request.messages, content.length),
      finishReason: str(at(body, 'choices', 0, 'finish_reason')),
      ...(toolCalls ? { toolCalls } : {}),
    };
  }

  async *stream(request: ChatRequest, opts: ProviderCallOptions = {}): AsyncGenerator<ChatStreamEvent> {
    const { http, key } = this.ready(opts);
    const req = { method: 'POST' as const, path: '/chat/completions', body: this.body(request, true), secret: key };
    let id: string | undefined;
    let finishReason: string | undefined;
    let usage;
    let chars = 0;
    let sawDone = false;
    for await (const event of http.sse({ ...req, headers: { ...this.headers(key), accept: 'text/event-stream' } }, opts)) {
      // after [DONE] keep reading to the end, so the connection goes back to the pool
      if (sawDone) continue;
      if (event.data === '[DONE]') {
        sawDone = true;
        continue;
      }
      const chunk = http.parse(event.data);
      // OpenRouter reports failures after the headers as a chunk with `error`
      if (at(chunk, 'error') !== undefined) throw http.vendorError(chunk, key);
      id ??= str(at(chunk, 'id'));
      const text = str(at(chunk, 'choices', 0, 'delta', 'content'));
      finishReason = str(at(chunk, 'choices', 0, 'finish_reason')) ?? finishReason;
      usage = this.usage(at(chunk, 'usage')) ?? usage;
      if (text) {
        chars += text.length;
        yield { type: 'delta', text };
      }
    }
    if (!sawDone) throw http.badResponse('stream ended before [DONE]');
    yield { type: 'done', id: id ?? generatedId(), usage: usage ?? estimateUsage(request.messages, chars), finishReason };
  }

  async listModels(opts: ProviderCallOptions = {}): Promise<string[]> {
    const { http, key } = this.ready(opts);
    const body = await http.json({ method: 'GET', path: '/models', headers: this.headers(key), secret: key }, opts);
    const data = arr(at(body, 'data'));
    if (!data) throw http.badResponse('no data[]');
    return data.map((m) => str(at(m, 'id'))).filter((id): id is string => id !== undefined);
  }

  async speech(request: SpeechRequest, opts: ProviderCallOptions & { readonly maxBytes: number }): Promise<Uint8Array> {
    const { http, key } = this.ready(opts);
    const body = { model: SPEECH_MODEL, input: request.text, voice: request.voice, response_format: request.format };
    return http.bytes({ method: 'POST', path: '/audio/speech', headers: this.headers(key), body, secret: key }, opts, opts.maxBytes);
  }

  /** multipart/form-data, as the vendor requires; `verbose_json` so the answer says how long the audio was. */
  async transcribe(request: TranscriptionRequest, opts: ProviderCallOptions = {}): Promise<Transcription> {
    const { http, key } = this.ready(opts);
    const form = new FormData();
    const type = AUDIO_TYPES[request.format] ?? 'application/octet-stream';
    form.append('file', new Blob([request.audio], { type }), `audio.${request.format}`);
    form.append('model', TRANSCRIPTION_MODEL);
    form.append('response_format', 'verbose_json');
    if (request.language) form.append('language', request.language);
    const body = await http.json({ method: 'POST', path: '/audio/transcriptions', headers: this.headers(key), body: form, secret: key }, opts);
    const text = str(at(body, 'text'));
    if (text === undefined) throw http.badResponse('no text');
    const duration = num(at(body, 'duration'));
    return duration !== undefined && duration >= 0 ? { text, durationSeconds: duration } : { text };
  }

  private ready(opts: ProviderCallOptions): { http: ProviderHttp; key: string | undefined } {
    const key = opts.apiKey || this.options.apiKey || undefined;
    if (!this.http || (this.traits.needsKey && !key)) throw new ProviderUnavailableError([this.name]);
    return { http: this.http, key };
  }

  private headers(key: string | undefined): Record<string, string> {
    return key ? { ...this.options.headers, authorization: `Bearer ${key}` } : { ...this.options.headers };
  }

  private body(request: ChatRequest, stream: boolean): Record<string, unknown> {
    return {
      model: this.traits.modelName(request.model),
      messages: request.messages.map(openAiMessage),
      ...(request.tools?.length ? { tools: openAiTools(request.tools), ...(request.toolChoice ? { tool_choice: openAiToolChoice(request.toolChoice) } : {}) } : {}),
      ...(request.stop?.length ? { stop: request.stop } : {}),
      ...(request.responseFormat === 'json' ? { response_format: { type: 'json_object' } } : {}),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.topP === undefined ? {} : { top_p: request.topP }),
      ...(request.maxTokens === undefined ? {} : { [this.traits.maxTokensField]: request.maxTokens }),
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    };
  }

  private usage(raw: unknown) {
    return usageFrom(num(at(raw, 'prompt_tokens')), num(at(raw, 'completion_tokens')), num(at(raw, 'total_tokens')));
  }
}
