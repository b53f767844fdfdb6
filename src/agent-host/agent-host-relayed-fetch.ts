import { randomUUID } from 'node:crypto';
import { msg, type HostMessage, type SupervisorMessage } from './agent-host-protocol.js';

type Answer = Extract<SupervisorMessage, { type: 'service-head' | 'service-chunk' | 'service-end' | 'service-error' }>;

/**
 * `fetch` for a program without a network (AGENT_HOST_SERVICE_VIA=supervisor): each call is a
 * `service-call` message to the supervisor, which makes the HTTP call and sends the answer back
 * in pieces (agent-host-protocol.ts). The service client uses it like fetch: a Response whose
 * body streams as the pieces arrive, and an abort that sends `service-abort`.
 */
export function relayedFetch(send: (m: HostMessage) => void): { fetch: typeof fetch; receive: (m: Answer) => void; endAll: () => void } {
  const calls = new Map<string, { head: (r: Response) => void; fail: (e: Error) => void; body: ReadableStreamDefaultController<Uint8Array> | null }>();
  const encoder = new TextEncoder();

  const relayed = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const id = randomUUID();
    const headers = new Headers(init.headers);
    const path = new URL(String(input)).pathname;
    return new Promise<Response>((resolve, reject) => {
      const signal = init.signal;
      if (signal?.aborted) return reject(signal.reason);
      const call = {
        body: null as ReadableStreamDefaultController<Uint8Array> | null,
        head: (r: Response) => resolve(r),
        fail: (e: Error) => {
          reject(e);
          call.body?.error(e);
        },
      };
      signal?.addEventListener(
        'abort',
        () => {
          if (!calls.delete(id)) return;
          send({ ...msg, type: 'service-abort', id });
          call.fail(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        },
        { once: true },
      );
      calls.set(id, call);
      send({ ...msg, type: 'service-call', id, path, accept: headers.get('accept') ?? 'application/json', authorization: headers.get('authorization') ?? '', body: String(init.body ?? '') });
    });
  };

  const receive = (m: Answer) => {
    const call = calls.get(m.id);
    if (!call) return;
    if (m.type === 'service-head') {
      const body = new ReadableStream<Uint8Array>({ start: (c) => void (call.body = c) });
      try {
        call.head(new Response(body, { status: m.status, headers: { 'content-type': m.contentType } }));
      } catch (err) {
        // a status a body cannot have (204, 304) or outside 200-599: not an answer of the service's format
        calls.delete(m.id);
        call.fail(err as Error);
      }
    } else if (m.type === 'service-chunk') call.body?.enqueue(encoder.encode(m.data));
    else if (m.type === 'service-end') {
      calls.delete(m.id);
      call.body?.close();
    } else {
      calls.delete(m.id);
      call.fail(new Error('the supervisor could not reach the service'));
    }
  };

  /** The channel closed, or the supervisor attached anew (`service-reset`): every call in progress fails. */
  const endAll = () => {
    for (const [id, call] of calls) {
      calls.delete(id);
      call.fail(new Error('the supervisor went away'));
    }
  };

  return { fetch: relayed as typeof fetch, receive, endAll };
}
