import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { readSse } from '../shared/sse-reader.js';
import {
  HOST_FAILURE,
  parseChatError,
  parseChatResult,
  RUNTIME_CHAT_PATH,
  RUNTIME_TOOLS_PATH,
  type RuntimeChatRequest,
  type RuntimeChatResult,
  type RuntimeToolRequest,
} from './agent-host-protocol.js';
import { AnsweredAsReply, type RelayedCall } from './agent-host-relayed-fetch.js';

/** A failure of the service call, with the code the supervisor will see in `failed`. */
export class ServiceCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Thrown when the call was cancelled by the supervisor: nothing is reported for it. */
export class CallCancelled extends Error {}

class IdleTimeout extends Error {}

export interface ServiceClientOptions {
  serviceUrl: string;
  gatewayToken: string;
  /** Without any answer or stream progress for this long the call fails with SERVICE_TIMEOUT. */
  idleTimeoutMs: number;
  /** The supervisor's relay for a program without a network; without it, node:http on a kept-alive connection. */
  fetch?: typeof fetch;
  /** The supervisor's relay, read without web streams (agent-host-relayed-fetch.ts `call`); wins over `fetch`. */
  relay?: RelayedCall;
  /**
   * With `relay`: the delivery whose reply this client's one chat call answers as it is. The
   * supervisor may take the answer as that reply; the call then rejects with AnsweredAsReply.
   */
  final?: string;
}

/** An answer of the service, whichever way the call was made. */
interface ServiceAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: AsyncIterable<Uint8Array | string>;
  text(): Promise<string>;
}

/**
 * The program's connections to the service, kept alive between answers (one connect less per
 * message; the program reads every answer to its end, so the connection is free again). An idle one
 * is closed after a minute, or before the service's announced keep-alive timeout. node:http rather
 * than fetch: about a quarter of a millisecond less per call.
 */
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 60_000 }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 60_000 }),
};

/**
 * The program's chat call (wire format: agent-host-protocol.ts). Streams when `onDelta` is given.
 * `signal` is the supervisor's `cancel`: it aborts the request, so the service sees its
 * connection close.
 */
export function requestCompletion(
  o: ServiceClientOptions,
  request: RuntimeChatRequest,
  signal: AbortSignal,
  onDelta?: (text: string) => void,
): Promise<RuntimeChatResult> {
  return call(o, RUNTIME_CHAT_PATH, request, signal, onDelta ? 'text/event-stream' : 'application/json', async (res, restartTimer) => {
    if (!onDelta) return readJson(await res.text());
    if (!res.contentType.includes('text/event-stream')) {
      throw new ServiceCallError(HOST_FAILURE.badResponse, 'the service did not answer with an event stream');
    }
    return readStream(res.body, restartTimer, onDelta);
  });
}

/** One tool call run by the service: its result for the model (`{success, ...}` or a refusal `{error, code}`). */
export function requestTool(o: ServiceClientOptions, request: RuntimeToolRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
  return call(o, RUNTIME_TOOLS_PATH, request, signal, 'application/json', async (res) => {
    const body = parseJson(await res.text());
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ServiceCallError(HOST_FAILURE.badResponse, 'the tool result is not a JSON object');
    return body as Record<string, unknown>;
  });
}

/**
 * One POST to the service with the gateway token: an idle timeout (restarted by `read` as a
 * stream progresses), the supervisor's cancel, and every failure translated to a ServiceCallError.
 */
async function call<T>(
  o: ServiceClientOptions,
  path: string,
  body: unknown,
  signal: AbortSignal,
  accept: string,
  read: (res: ServiceAnswer, restartTimer: () => void) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const onCancel = () => controller.abort(new CallCancelled());
  signal.addEventListener('abort', onCancel, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const restartTimer = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new IdleTimeout()), o.idleTimeoutMs);
  };
  restartTimer();
  let completed = false;
  try {
    if (signal.aborted) throw new CallCancelled();
    let res: ServiceAnswer;
    try {
      const url = `${o.serviceUrl.replace(/\/+$/, '')}${path}`;
      const headers = { authorization: `Bearer ${o.gatewayToken}`, 'content-type': 'application/json', accept };
      res = o.relay
        ? await o.relay(path, { authorization: headers.authorization, accept }, JSON.stringify(body), controller.signal, o.final)
        : o.fetch
          ? await viaFetch(o.fetch, url, headers, JSON.stringify(body), controller.signal) : await viaHttp(url, headers, JSON.stringify(body), controller.signal);
    } catch (err) {
      throw translate(err, controller.signal, HOST_FAILURE.unreachable, 'the service could not be reached');
    }
    restartTimer();
    try {
      if (res.status < 200 || res.status > 299) throw await httpFailure(res);
      const result = await read(res, restartTimer);
      // read to its end: the connection goes back to the pool and the next call skips the connect
      completed = true;
      return result;
    } catch (err) {
      throw translate(err, controller.signal, HOST_FAILURE.badResponse, 'the service answer was cut short');
    }
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onCancel);
    // a response still being received is released: the service sees the connection close
    if (!completed && !controller.signal.aborted) controller.abort();
  }
}

/** The call through the supervisor's relay (its Response). */
async function viaFetch(f: typeof fetch, url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<ServiceAnswer> {
  const res = await f(url, { method: 'POST', headers, body, signal });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: res.body ?? EMPTY, text: () => res.text() };
}

/** The call on a kept-alive connection; `signal` destroys the request and its answer (the service sees the connection close). */
function viaHttp(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<ServiceAnswer> {
  const payload = Buffer.from(body);
  return new Promise<ServiceAnswer>((resolve, reject) => {
    const target = new URL(url);
    const protocol = target.protocol === 'https:' ? 'https:' : 'http:';
    const req = (protocol === 'https:' ? https : http).request(
      target,
      { method: 'POST', headers: { ...headers, 'content-length': payload.byteLength }, agent: AGENTS[protocol], signal },
      (res: IncomingMessage) => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? '', body: res, text: () => readText(res) }),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const EMPTY: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: async function* () {} };

async function readText(res: IncomingMessage): Promise<string> {
  res.setEncoding('utf8');
  let text = '';
  for await (const piece of res as AsyncIterable<string>) text += piece;
  return text;
}

/** The stream read to its end (the service ends it right after `done`), so its connection can be reused. */
async function readStream(body: AsyncIterable<Uint8Array | string>, onChunk: () => void, onDelta: (text: string) => void): Promise<RuntimeChatResult> {
  let result: RuntimeChatResult | null = null;
  for await (const event of readSse(body, onChunk)) {
    if (result) continue;
    const data = parseJson(event.data);
    if (event.event === 'delta') {
      const content = (data as { content?: unknown } | undefined)?.content;
      if (typeof content !== 'string') throw new ServiceCallError(HOST_FAILURE.badResponse, 'a delta event without content');
      if (content !== '') onDelta(content);
    } else if (event.event === 'done') {
      result = parseChatResult(data);
      if (!result) throw new ServiceCallError(HOST_FAILURE.badResponse, 'a done event without {content, model, usage}');
    } else if (event.event === 'error') {
      const failure = parseChatError(data);
      throw failure ? new ServiceCallError(failure.code, failure.error) : new ServiceCallError(HOST_FAILURE.badResponse, 'an error event without a code');
    }
    // other events are ignored: the service may add some (keep-alives) without breaking old programs
  }
  if (result) return result;
  throw new ServiceCallError(HOST_FAILURE.badResponse, 'the event stream ended without done or error');
}

function readJson(text: string): RuntimeChatResult {
  const result = parseChatResult(parseJson(text));
  if (!result) throw new ServiceCallError(HOST_FAILURE.badResponse, 'the answer is not {content, model, usage}');
  return result;
}

async function httpFailure(res: ServiceAnswer): Promise<ServiceCallError> {
  const failure = parseChatError(parseJson(await res.text()));
  return failure
    ? new ServiceCallError(failure.code, failure.error)
    : new ServiceCallError(HOST_FAILURE.badResponse, `the service answered HTTP ${res.status} without an error code`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Our own errors pass through; an abort becomes its cause (cancel or timeout); anything else `fallback`. */
function translate(err: unknown, signal: AbortSignal, fallback: string, what: string): Error {
  if (err instanceof ServiceCallError || err instanceof AnsweredAsReply) return err;
  if (signal.aborted && signal.reason instanceof CallCancelled) return signal.reason;
  if (signal.aborted && signal.reason instanceof IdleTimeout) return new ServiceCallError(HOST_FAILURE.timeout, 'the service did not answer in time');
  return new ServiceCallError(fallback, what);
}
