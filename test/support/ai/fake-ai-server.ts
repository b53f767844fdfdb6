import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CHUNKS, DEFAULT_USAGE, type Dialect, type DialectCall, type FakeBehaviour } from './fake-ai-dialect.js';

export * from './fake-ai-dialect.js';

export interface RecordedRequest {
  readonly method: string;
  /** Path with query string, as received. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined for GET or a non-JSON body). */
  readonly body: any;
  /** True once the response finished or the client closed the connection. */
  ended: boolean;
  /** True when the client closed the connection before the response was complete. */
  closedByClient: boolean;
  /** Resolves when the response ended either way. */
  readonly closed: Promise<void>;
}

export interface FakeAiServerOptions {
  /** The key the fake expects; a missing or different key gets the vendor's auth error. */
  readonly apiKey?: string;
  readonly behaviour?: FakeBehaviour;
  /** Keep recorded requests (default true); benchmarks turn it off. */
  readonly record?: boolean;
  /** Model ids the models endpoint lists. */
  readonly models?: readonly string[];
}

export interface FakeAiServer {
  /** Origin, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** What to pass as the adapter's `baseUrl`. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  setBehaviour(behaviour: FakeBehaviour): void;
  /** One behaviour per request in order; the last one stays for every request after. */
  setScript(behaviours: readonly FakeBehaviour[]): void;
  lastRequest(): RecordedRequest;
  close(): Promise<void>;
}

/** Starts a fake vendor on 127.0.0.1, port 0. Shared by the three vendor fakes. */
export async function startFakeAiServer(dialect: Dialect, options: FakeAiServerOptions = {}): Promise<FakeAiServer> {
  let behaviour: FakeBehaviour = options.behaviour ?? { kind: 'reply' };
  let script: FakeBehaviour[] = [];
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      let body: any;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const record = track(req, res, body);
      if (options.record !== false) requests.push(record);
      handle(req, res, body);
    });
  });

  function track(req: IncomingMessage, res: ServerResponse, body: unknown): RecordedRequest {
    let resolve!: () => void;
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body,
      ended: false,
      closedByClient: false,
      closed: new Promise<void>((r) => (resolve = r)),
    };
    res.on('close', () => {
      record.ended = true;
      record.closedByClient = !res.writableFinished;
      resolve();
    });
    return record;
  }

  function handle(req: IncomingMessage, res: ServerResponse, body: any): void {
    const call = dialect.route(req.method ?? 'GET', req.url ?? '/', body);
    if (!call) return sendJson(res, 404, dialect.errorBody(404));
    if (options.apiKey !== undefined) {
      const denied = dialect.authError(req.headers, options.apiKey);
      if (denied) return sendJson(res, denied.status, denied.body);
    }
    if (call.kind !== 'models' && script.length > 0) behaviour = script.shift()!;
    const current = behaviour;
    if (current.kind === 'slow') return later(current.delayMs, () => answer(res, call, { kind: 'reply' }));
    answer(res, call, current);
  }

  function answer(res: ServerResponse, call: DialectCall, b: FakeBehaviour): void {
    if (res.destroyed) return;
    if (b.kind === 'error') return sendJson(res, b.status, dialect.errorBody(b.status));
    if (b.kind === 'malformed') {
      res.writeHead(200, { 'content-type': call.kind === 'stream' ? 'text/event-stream' : 'application/json' });
      return void res.end(call.kind === 'stream' ? 'data: {"not json\n\n' : '{"truncated": ');
    }
    if (call.kind === 'models') return sendJson(res, 200, dialect.models(options.models ?? ['model-a', 'model-b']));
    if (b.kind === 'tool-calls') {
      if (call.kind === 'stream') return sendJson(res, 400, dialect.errorBody(400));
      return sendJson(res, 200, dialect.toolCallCompletion(call.model, b.text ?? '', b.calls, b.usage ?? DEFAULT_USAGE));
    }
    const chunks = ('chunks' in b && b.chunks) || DEFAULT_CHUNKS;
    const usage = ((b.kind === 'reply' || b.kind === 'stall') && b.usage) || DEFAULT_USAGE;
    if (call.kind === 'complete') {
      if (b.kind === 'stall') return; // never answers; the client's timeout or abort ends it
      return sendJson(res, 200, dialect.completion(call.model, chunks.join(''), usage));
    }
    const events = dialect.streamEvents(call.model, chunks, usage);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const e of events.head) res.write(e);
    const delay = b.kind === 'reply' ? (b.chunkDelayMs ?? 0) : 0;
    const rest = [...chunks.map(events.delta)];
    const finish = () => {
      if (b.kind === 'stall') return; // holds the connection open
      if (b.kind === 'stream-error') return void res.end(dialect.streamError());
      for (const e of events.tail) res.write(e);
      res.end();
    };
    if (delay === 0) {
      for (const e of rest) res.write(e);
      return finish();
    }
    const step = (i: number) => {
      if (res.destroyed) return;
      if (i >= rest.length) return finish();
      res.write(rest[i]);
      later(delay, () => step(i + 1));
    };
    step(0);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseUrl: `${url}${dialect.basePath}`,
    requests,
    setBehaviour: (b) => {
      behaviour = b;
      script = [];
    },
    setScript: (bs) => {
      script = [...bs];
    },
    lastRequest: () => {
      const last = requests[requests.length - 1];
      if (!last) throw new Error('the fake server has received no request');
      return last;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
