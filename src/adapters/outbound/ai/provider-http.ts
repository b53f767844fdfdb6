import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { ProviderError } from '../../../application/ai/ai-provider.errors.js';
import type { CallProgress, ProviderCallOptions } from '../../../application/ports/ai-provider.port.js';
import { CallScope } from './call-scope.js';
import { readSse, type SseEvent } from '../../../shared/sse-reader.js';

/** What every HTTP adapter is built from. */
export interface HttpProviderOptions {
  /** The platform's key; absent means the provider is unconfigured (BYOK calls still work). */
  apiKey?: string;
  baseUrl?: string;
  /** Per call; streams use it as an idle timeout. Default 60 s. */
  timeoutMs?: number;
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
  /** Sent as JSON, except a FormData (multipart, with its boundary). */
  readonly body?: unknown;
  /** Replaced by `[redacted]` in anything kept from the vendor's answer. */
  readonly secret: string | undefined;
}

const MAX_ERROR_TEXT = 500;
// Scrubbed from vendor text we keep: key-looking runs, and masked keys vendors echo back
// (OpenAI: `sk-*********abcd`), whose visible ends still identify the key.
const KEY_LIKE = /[A-Za-z0-9_*.-]{24,}|[A-Za-z0-9_-]*\*{3,}[A-Za-z0-9_-]*/g;

/**
 * The connections to providers: kept alive between calls (Node's own keep-alive rules: a socket
 * idle for 5 s, or past the server's announced `Keep-Alive: timeout`, is closed first), the most
 * recently used first, so a quiet process keeps few warm ones. Undici's fetch, used before, cost
 * about a quarter of a millisecond more per call (its Request, Headers and web streams).
 */
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5_000 }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5_000 }),
};

const isOk = (res: IncomingMessage): boolean => res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300;

/** The transport shared by the three adapters: timeouts, cancellation and error translation. */
export class ProviderHttp {
  private readonly target: { protocol: 'http:' | 'https:'; hostname: string; port: string; prefix: string };

  constructor(
    readonly provider: string,
    baseUrl: string,
    private readonly timeoutMs: number,
    private readonly describeError: (body: unknown) => VendorError,
  ) {
    const base = new URL(baseUrl);
    this.target = {
      protocol: base.protocol === 'https:' ? 'https:' : 'http:',
      hostname: base.hostname.replace(/^\[(.*)\]$/, '$1'), // an IPv6 literal without its brackets
      port: base.port,
      prefix: base.pathname === '/' ? '' : base.pathname,
    };
  }

  /** Sends the request and returns the parsed JSON body of a 2xx answer. */
  async json(req: HttpRequest, opts: ProviderCallOptions): Promise<unknown> {
    const scope = new CallScope(this.provider, opts.timeoutMs ?? this.timeoutMs, opts.signal);
    let complete = false;
    try {
      const res = await this.send(req, scope, opts.progress);
      if (!isOk(res)) throw await this.httpError(res, req.secret);
      const text = await readText(res);
      complete = true;
      return this.parse(text);
    } catch (err) {
      throw scope.failure(err);
    } finally {
      scope.close(!complete);
    }
  }

  /** Sends the request and returns the raw body of a 2xx answer, refusing one larger than `maxBytes`. */
  async bytes(req: HttpRequest, opts: ProviderCallOptions, maxBytes: number): Promise<Uint8Array> {
    const scope = new CallScope(this.provider, opts.timeoutMs ?? this.timeoutMs, opts.signal);
    let complete = false;
    try {
      const res = await this.send(req, scope, opts.progress);
      if (!isOk(res)) throw await this.httpError(res, req.secret);
      const parts: Uint8Array[] = [];
      let size = 0;
      for await (const part of res as AsyncIterable<Buffer>) {
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
      const res = await this.send(req, scope, opts.progress);
      if (!isOk(res)) throw await this.httpError(res, req.secret);
      for await (const event of readSse(res, () => scope.restartTimer())) {
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

  /**
   * The request on a kept-alive connection; resolves with the response once its headers are in.
   * The scope (the caller leaving, the timeout) destroys the request, and the response's body
   * with it. `progress` is told when the request has gone out.
   */
  private async send(req: HttpRequest, scope: CallScope, progress: CallProgress | undefined): Promise<IncomingMessage> {
    const { body, type } = req.body instanceof FormData ? await multipart(req.body) : json(req.body);
    const headers: Record<string, string | number> = { 'user-agent': USER_AGENT, ...(type ? { 'content-type': type } : {}), ...req.headers };
    if (body) headers['content-length'] = body.byteLength;
    const { protocol, hostname, port, prefix } = this.target;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const request = (protocol === 'https:' ? https : http).request(
        { protocol, hostname, port, path: prefix + req.path, method: req.method, headers, agent: AGENTS[protocol] },
        resolve,
      );
      request.on('error', reject);
      // `finish`: the whole request has been handed to the operating system, so the vendor may bill it
      if (progress) request.once('finish', () => progress.sent());
      scope.attach(request);
      request.end(body);
    });
  }

  private async httpError(res: IncomingMessage, secret: string | undefined): Promise<ProviderError> {
    const text = await readText(res);
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // not the vendor's JSON error body (a proxy's HTML page, say): keep the start of the text
      body = undefined;
    }
    const error = this.vendorError(body, secret, res.statusCode);
    if (error.upstreamMessage !== undefined || text === '') return error;
    return new ProviderError(this.provider, 'http', error.message, res.statusCode, scrub(text, secret));
  }
}

const USER_AGENT = 'agent-host';

/** A JSON body as its bytes (none for a request without a body). */
function json(body: unknown): { body: Buffer | undefined; type: string | undefined } {
  return body === undefined ? { body: undefined, type: undefined } : { body: Buffer.from(JSON.stringify(body)), type: 'application/json' };
}

/** A FormData as multipart bytes, the boundary in its content type (the audio uploads). */
async function multipart(form: FormData): Promise<{ body: Buffer; type: string | undefined }> {
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), type: encoded.headers.get('content-type') ?? undefined };
}

/** The whole body as text (read to its end, so the connection goes back to the pool). */
async function readText(res: IncomingMessage): Promise<string> {
  res.setEncoding('utf8');
  let text = '';
  for await (const piece of res as AsyncIterable<string>) text += piece;
  return text;
}

function scrub(text: string, secret: string | undefined): string {
  const bounded = text.slice(0, MAX_ERROR_TEXT);
  const withoutKey = secret ? bounded.split(secret).join('[redacted]') : bounded;
  return withoutKey.replace(KEY_LIKE, '[redacted]');
}

export function trimSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}
