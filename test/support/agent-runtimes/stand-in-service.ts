import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RuntimeChatRequest } from '../../../src/agent-host/agent-host-protocol.js';

/** What the stand-in does with the next request. */
export type Behaviour =
  | { kind: 'answer'; deltas: string[]; model?: string }
  | { kind: 'fail'; status: number; code: string; error?: string }
  /** A stream that starts, sends deltas, then an `error` event. */
  | { kind: 'stream-error'; deltas: string[]; code: string }
  /** Headers and the deltas, then nothing: the request stays open until the client leaves. */
  | { kind: 'hang'; deltas: string[] };

export interface ReceivedCall {
  authorization: string | undefined;
  accept: string | undefined;
  body: RuntimeChatRequest;
  /** Where the call came from: the caller's address as the stand-in's socket sees it. */
  remoteAddress: string | undefined;
  /** Resolves when the client closed the connection before the answer ended. */
  clientLeft: Promise<void>;
}

/**
 * Stands in for the service's `POST /api/runtime/chat` (the wire format of
 * agent-host-protocol.ts): checks the Bearer token, answers JSON or SSE by `Accept`, and can
 * fail, fail mid-stream, or hang on purpose. It listens on `host` (loopback unless told: an
 * internal docker network's gateway address, for containers that call it directly).
 */
export async function startStandInService(token: string, host = '127.0.0.1') {
  const calls: ReceivedCall[] = [];
  let behaviour: Behaviour = { kind: 'answer', deltas: ['Hel', 'lo'] };
  const waiting: ((c: ReceivedCall) => void)[] = [];

  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST' || req.url !== '/api/runtime/chat') return json(res, 404, { error: 'not found', code: 'NOT_FOUND' });
    let text = '';
    for await (const chunk of req) text += chunk;
    if (req.headers.authorization !== `Bearer ${token}`) return json(res, 401, { error: 'bad token', code: 'UNAUTHORIZED' });
    let finished = false;
    const clientLeft = new Promise<void>((resolve) => res.on('close', () => !finished && resolve()));
    const call: ReceivedCall = { authorization: req.headers.authorization, accept: req.headers.accept, body: JSON.parse(text), remoteAddress: req.socket.remoteAddress, clientLeft };
    calls.push(call);
    waiting.shift()?.(call);
    const b = behaviour;
    const model = 'stand-in-model';
    const usage = { promptTokens: 11, completionTokens: 2, totalTokens: 13 };
    if (b.kind === 'fail') return (finished = true), json(res, b.status, { error: b.error ?? 'failed', code: b.code });
    const streaming = (req.headers.accept ?? '').includes('text/event-stream');
    if (b.kind === 'answer' && !streaming) return (finished = true), json(res, 200, { content: b.deltas.join(''), model: b.model ?? model, usage });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    for (const d of b.deltas) res.write(`event: delta\ndata: ${JSON.stringify({ content: d })}\n\n`);
    if (b.kind === 'hang') return;
    if (b.kind === 'stream-error') res.write(`event: error\ndata: ${JSON.stringify({ error: 'the provider failed', code: b.code })}\n\n`);
    else res.write(`event: done\ndata: ${JSON.stringify({ content: b.deltas.join(''), model: b.model ?? model, usage })}\n\n`);
    finished = true;
    res.end();
  }

  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    calls,
    set(next: Behaviour) {
      behaviour = next;
    },
    /** The next request the stand-in receives. */
    nextCall: () => new Promise<ReceivedCall>((resolve) => waiting.push(resolve)),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
