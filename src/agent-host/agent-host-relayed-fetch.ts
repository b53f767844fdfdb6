import { randomUUID } from 'node:crypto';
import { msg, type HostMessage, type SupervisorMessage } from './agent-host-protocol.js';

type Answer = Extract<SupervisorMessage, { type: 'service-head' | 'service-chunk' | 'service-end' | 'service-error' | 'service-answer' | 'service-final' }>;

/**
 * The call's answer was taken by the supervisor as the reply of the delivery the call named
 * (`final`, agent-host-protocol.ts): the delivery is done and the program sends nothing for it.
 */
export class AnsweredAsReply extends Error {
  constructor() {
    super('the supervisor took the answer as the reply');
  }
}

/** A service answer as the service client reads it, whichever way the call was made. */
export interface RelayedAnswer {
  readonly status: number;
  readonly contentType: string;
  /** The body's text, piece by piece as the supervisor sends it. */
  readonly body: AsyncIterable<string>;
  text(): Promise<string>;
}

/**
 * A relayed call: the path and the two headers the relay carries. `final`: the delivery whose reply
 * the answer is, as it is; the supervisor may then take it as that reply (the call rejects with
 * AnsweredAsReply).
 */
export type RelayedCall = (path: string, headers: { authorization: string; accept: string }, body: string, signal?: AbortSignal, final?: string) => Promise<RelayedAnswer>;

/** The pieces of one answer's body, read as they arrive; a failure ends the reading with it. */
class Pieces implements AsyncIterable<string> {
  private readonly queue: string[] = [];
  private finished = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  push(piece: string): void {
    this.queue.push(piece);
    this.wake?.();
  }

  end(): void {
    this.finished = true;
    this.wake?.();
  }

  fail(err: Error): void {
    this.failure ??= err;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    for (;;) {
      if (this.failure) throw this.failure;
      if (this.queue.length > 0) {
        yield this.queue.shift()!;
        continue;
      }
      if (this.finished) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  async text(): Promise<string> {
    let text = '';
    for await (const piece of this) text += piece;
    return text;
  }
}

/**
 * The service calls of a program that does not make them itself (AGENT_HOST_SERVICE_VIA=supervisor:
 * a container without a network, or a forked program whose supervisor answers in its own process):
 * each call is a `service-call` message to the supervisor, whose answer comes back in pieces
 * (agent-host-protocol.ts). `call` hands the service client the answer's text as it arrives, with
 * no web stream in between (they cost more CPU than the rest of the relay); `fetch` is the same as
 * a Response. An abort sends `service-abort`.
 */
export function relayedFetch(send: (m: HostMessage) => void): { call: RelayedCall; fetch: typeof fetch; receive: (m: Answer) => void; endAll: () => void } {
  const calls = new Map<string, { head: (a: RelayedAnswer) => void; fail: (e: Error) => void; body: Pieces | null }>();

  const call: RelayedCall = (path, headers, body, signal, final) => {
    const id = randomUUID();
    return new Promise<RelayedAnswer>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const entry = {
        body: null as Pieces | null,
        head: (a: RelayedAnswer) => resolve(a),
        fail: (e: Error) => {
          reject(e);
          entry.body?.fail(e);
        },
      };
      signal?.addEventListener(
        'abort',
        () => {
          if (!calls.delete(id)) return;
          send({ ...msg, type: 'service-abort', id });
          entry.fail(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        },
        { once: true },
      );
      calls.set(id, entry);
      send({ ...msg, type: 'service-call', id, path, accept: headers.accept, authorization: headers.authorization, body, ...(final === undefined ? {} : { final }) });
    });
  };

  const relayed = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    const answer = await call(new URL(String(input)).pathname, { authorization: headers.get('authorization') ?? '', accept: headers.get('accept') ?? 'application/json' }, String(init.body ?? ''), init.signal ?? undefined);
    const encoder = new TextEncoder();
    const pieces = answer.body[Symbol.asyncIterator]();
    const body = new ReadableStream<Uint8Array>({
      pull: async (c) => {
        const { value, done } = await pieces.next();
        if (done) c.close();
        else c.enqueue(encoder.encode(value));
      },
    });
    // a status a body cannot have (204, 304) or outside 200-599 throws: not an answer of the service's format
    return new Response(body, { status: answer.status, headers: { 'content-type': answer.contentType } });
  };

  const head = (entry: { head: (a: RelayedAnswer) => void; body: Pieces | null }, status: number, contentType: string): Pieces => {
    const body = new Pieces();
    entry.body = body;
    entry.head({ status, contentType, body, text: () => body.text() });
    return body;
  };

  const receive = (m: Answer) => {
    const entry = calls.get(m.id);
    if (!entry) return;
    if (m.type === 'service-head') head(entry, m.status, m.contentType);
    else if (m.type === 'service-chunk') entry.body?.push(m.data);
    else if (m.type === 'service-answer') {
      // the whole answer at once: its head, its one piece, its end
      calls.delete(m.id);
      const body = head(entry, m.status, m.contentType);
      if (m.data !== '') body.push(m.data);
      body.end();
    } else if (m.type === 'service-end') {
      calls.delete(m.id);
      entry.body?.end();
    } else if (m.type === 'service-final') {
      calls.delete(m.id);
      entry.fail(new AnsweredAsReply());
    } else {
      calls.delete(m.id);
      entry.fail(new Error('the supervisor could not reach the service'));
    }
  };

  /** The channel closed, or the supervisor attached anew (`service-reset`): every call in progress fails. */
  const endAll = () => {
    for (const [id, entry] of calls) {
      calls.delete(id);
      entry.fail(new Error('the supervisor went away'));
    }
  };

  return { call, fetch: relayed as typeof fetch, receive, endAll };
}
