import { ProviderError } from '../../../application/ai/ai-provider.errors.js';
import type { ProviderCallOptions } from '../../../application/ports/ai-provider.port.js';
import { CallScope } from './call-scope.js';
import { readSse, type SseEvent } from './sse.js';

/** What every HTTP adapter is built from. */
export interface HttpProviderOptions {
  /** The platform's key; absent means the provider is unconfigured (BYOK calls still work). */
  apiKey?: string;
  baseUrl?: string;
  /** Per call; streams use it as an idle timeout. Default 60 s. */
  timeoutMs?: number;
  /** Injected in tests; defaults to the global fetch (undici). */
  fetch?: typeof fetch;
}
export const DEFAULT_TIMEOUT_MS = 60_000;

/** The vendor's error type/code and free-text message, read from its error body. */
export interface VendorError {
  readonly type?: string;
  readonly message?: string;
  readonly status?: number;
}

export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  /** Sent as JSON, except a FormData (multipart, its boundary set by fetch). */
  readonly body?: unknown;
  /** Replaced by `[redacted]` in anything kept from the vendor's answer. */
  readonly secret: string | undefined;
}

const MAX_ERROR_TEXT = 500;
// Scrubbed from vendor text we keep: key-looking runs, and masked keys vendors echo back
// (OpenAI: `sk-*********abcd`), whose visible ends still identify the key.
const KEY_LIKE = /[A-Za-z0-9_*.-]{24,}|[A-Za-z0-9_-]*\*{3,}[A-Za-z0-9_-]*/g;

/** The transport shared by the three adapters: timeouts, cancellation and error translation. */
export class ProviderHttp {
  private readonly fetchFn: typeof fetch;

  constructor(
    readonly provider: string,
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly describeError: (body: unknown) => VendorError,
    fetchFn?: typeof fetch,
  ) {
    this.fetchFn = fetchFn ?? globalThis.fetch;
  }

  /** Sends the request and returns the parsed JSON body of a 2xx answer. */
  async json(req: HttpRequest, opts: ProviderCallOptions): Promise<unknown> {
    const scope = new CallScope(this.provider, opts.timeoutMs ?? this.timeoutMs, opts.signal);
    try {
      const res = await this.send(req, scope);
      if (!res.ok) throw await this.httpError(res, req.secret);
      return this.parse(await res.text());
    } catch (err) {
      throw scope.failure(err);
    } finally {
      scope.close(false);
    }
  }

  /** Sends the request and returns the raw body of a 2xx answer, refusing one larger than `maxBytes`. */
  async bytes(req: HttpRequest, opts: ProviderCallOptions, maxBytes: number): Promise<Uint8Array> {
    const scope = new CallScope(this.provider, opts.timeoutMs ?? this.timeoutMs, opts.signal);
    let complete = false;
    try {
      const res = await this.send(req, scope);
      if (!res.ok) throw await this.httpError(res, req.secret);
      if (!res.body) throw this.badResponse('empty body');
      const parts: Uint8Array[] = [];
      let size = 0;
      for await (const part of res.body) {
        size += part.byteLength;
        // read no further than the bound: a runaway answer costs at most maxBytes of memory
        if (size > maxBytes) throw this.badResponse(`body larger than ${maxBytes} bytes`);
        parts.push(part);
      }
      if (size === 0) throw this.badResponse('empty body');
      complete = true;
      return Buffer.concat(parts);
    } catch (err) {
      throw scope.failure(err);
    } finally {
      scope.close(!complete);
    }
  }

  /** Sends the request and yields the events of a 2xx `text/event-stream` answer. */
  async *sse(req: HttpRequest, opts: ProviderCallOptions): AsyncGenerator<SseEvent> {
    const scope = new CallScope(this.provider, opts.timeoutMs ?? this.timeoutMs, opts.signal);
    let complete = false;
    try {
      const res = await this.send(req, scope);
      if (!res.ok) throw await this.httpError(res, req.secret);
      if (!res.body) throw this.badResponse('empty stream body');
      for await (const event of readSse(res.body, () => scope.restartTimer())) {
        scope.pauseTimer();
        yield event;
        scope.restartTimer();
      }
      complete = true;
    } catch (err) {
      throw scope.failure(err);
    } finally {
      scope.close(!complete);
    }
  }

  /** JSON.parse that fails as the provider's `bad_response`. */
  parse(text: string): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw this.badResponse('body is not JSON');
    }
  }

  badResponse(what: string): ProviderError {
    return new ProviderError(this.provider, 'bad_response', `${this.provider}: malformed answer (${what})`);
  }

  /** An error the vendor reported in a 2xx body or inside a stream. */
  vendorError(body: unknown, secret: string | undefined, status?: number): ProviderError {
    const vendor = this.describeError(body);
    const code = status ?? vendor.status;
    const label = code === undefined ? 'error' : `HTTP ${code}`;
    return new ProviderError(
      this.provider,
      'http',
      `${this.provider}: ${label}${vendor.type ? ` (${vendor.type})` : ''}`,
      code,
      vendor.message === undefined ? undefined : scrub(vendor.message, secret),
    );
  }

  private send(req: HttpRequest, scope: CallScope): Promise<Response> {
    const form = req.body instanceof FormData;
    const headers = req.body === undefined || form ? req.headers : { 'content-type': 'application/json', ...req.headers };
    return this.fetchFn(`${this.baseUrl}${req.path}`, {
      method: req.method,
      headers,
      body: req.body === undefined ? undefined : form ? (req.body as FormData) : JSON.stringify(req.body),
      signal: scope.signal,
    });
  }

  private async httpError(res: Response, secret: string | undefined): Promise<ProviderError> {
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // not the vendor's JSON error body (a proxy's HTML page, say): keep the start of the text
      body = undefined;
    }
    const error = this.vendorError(body, secret, res.status);
    if (error.upstreamMessage !== undefined || text === '') return error;
    return new ProviderError(this.provider, 'http', error.message, res.status, scrub(text, secret));
  }
}

function scrub(text: string, secret: string | undefined): string {
  const bounded = text.slice(0, MAX_ERROR_TEXT);
  const withoutKey = secret ? bounded.split(secret).join('[redacted]') : bounded;
  return withoutKey.replace(KEY_LIKE, '[redacted]');
}

export function trimSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}
