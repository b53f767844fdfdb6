import type { HostCall, HostCallAnswer, HostCalls } from '../../../application/ports/host-calls.port.js';
import { msg, parseChatResult, RUNTIME_CHAT_PATH, RUNTIME_TOOLS_PATH, type HostMessage, type RuntimeChatResult, type SupervisorMessage } from '../../../agent-host/agent-host-protocol.js';

/** A host's calls to the service in progress at once; one more is refused at once (service-error), not queued. */
export const MAX_CALLS_IN_FLIGHT = 16;
/** A body longer than this (UTF-16 units, twice the service's 1 MiB body limit) is refused unread: no call of ours is near it. */
export const MAX_BODY_LENGTH = 2 * 2 ** 20;
/** A call id is echoed in every answer message: a longer one is not the program's. */
const MAX_ID_LENGTH = 128;
/** A burst of refusals is logged once per this many milliseconds, with how many there were. */
const REFUSAL_LOG_MS = 10_000;

const KINDS = new Map<unknown, HostCall['kind']>([
  [RUNTIME_CHAT_PATH, 'chat'],
  [RUNTIME_TOOLS_PATH, 'tools'],
]);

/**
 * The hosting adapter's end of one agent host's calls to the service, on the host's own channel
 * (a forked program's IPC channel, or a container's attach stream; AGENT_HOST_SERVICE_VIA=supervisor):
 * each `service-call` frame is checked as a frame and handed to the service's door (HostCalls: in
 * this process, or over HTTP), and the answer goes back as `service-head`, `service-chunk`s and
 * `service-end`, or whole as one `service-answer`.
 *
 * What the host sends is untrusted (decision 0403): its Authorization header is never used, the call
 * carries the instance's own gateway token, which this relay was given when the instance started;
 * the path must be one of the two runtime paths exactly; the Accept header only says whether a
 * stream is asked for; the body must be text of bounded length; at most MAX_CALLS_IN_FLIGHT calls
 * run at once. Anything else is refused with `service-error` (or ignored, when it has no usable id),
 * and nothing a frame holds can throw out of `handle`: one instance's calls fail within it.
 * `service-abort` (or the host's end: `endAll`) aborts the call, so its provider call stops and its
 * reservation is released, as when an HTTP client goes away.
 *
 * A chat call that names its delivery (`final`) and is answered whole at once with a 2xx
 * {@link RuntimeChatResult} in JSON becomes that delivery's reply here (`reply`), and the host hears
 * only `service-final`: the answer does not cross to the host and back as its reply (decision 0478).
 * The reply is the service's own answer, so a host gains nothing by naming a delivery: it could send
 * any reply for its own deliveries anyway. Any other answer crosses as above.
 */
export class HostCallRelay {
  private readonly byId = new Map<string, AbortController>();
  private refused = 0;
  private lastRefusalLog = -Infinity;

  constructor(
    private readonly o: {
      /** The door; resolved at the first call (the in-process answers need use cases registered after the runtime). */
      calls: () => HostCalls;
      /** The instance's own gateway token: every call is made with it. */
      gatewayToken: string;
      send: (m: SupervisorMessage) => boolean;
      /** Resolves the host's delivery `id` with `reply` (AwaitedAnswers.replyWith); false when none waits. */
      reply: (id: string, reply: RuntimeChatResult) => boolean;
      log: (line: string) => void;
    },
  ) {}

  /** `service-call` or `service-abort`; false for any other message (not the relay's). */
  handle(m: HostMessage): boolean {
    if (m.type !== 'service-call' && m.type !== 'service-abort') return false;
    try {
      if (m.type === 'service-abort') this.abort(m.id);
      else this.call(m);
    } catch (err) {
      // a bug here must not end the worker: the call is lost, its host hears nothing more of it
      this.o.log(`host call relay: a frame could not be handled: ${(err as Error)?.message ?? String(err)}`);
    }
    return true;
  }

  /** The host ended (or its channel closed): every call of it aborted. */
  endAll(): void {
    for (const c of this.byId.values()) c.abort();
    this.byId.clear();
  }

  private abort(id: unknown): void {
    if (typeof id !== 'string') return;
    this.byId.get(id)?.abort();
    this.byId.delete(id);
  }

  private refuse(id: string | null, why: string): void {
    if (id !== null) this.o.send({ ...msg, type: 'service-error', id });
    this.refused++;
    const now = performance.now();
    if (now - this.lastRefusalLog < REFUSAL_LOG_MS) return;
    this.o.log(`host call relay: refused ${this.refused} call(s) in the last ${REFUSAL_LOG_MS / 1000} s, the latest ${why}`);
    this.lastRefusalLog = now;
    this.refused = 0;
  }

  /** The frame as a call to answer, or null (refused or ignored). */
  private open(m: Record<string, unknown>): { id: string; call: HostCall; final: string | null } | null {
    const { id, path, body, accept, final } = m;
    // no id to answer to: nothing can be sent back
    if (typeof id !== 'string' || id === '' || id.length > MAX_ID_LENGTH) return this.refuse(null, 'without a usable id'), null;
    if (this.byId.has(id)) return this.refuse(null, 'with an id already in flight'), null;
    const kind = KINDS.get(path);
    if (!kind) return this.refuse(id, 'outside the two runtime paths'), null;
    if (typeof body !== 'string' || body.length > MAX_BODY_LENGTH) return this.refuse(id, 'with a body that is not text or too long'), null;
    if (this.byId.size >= MAX_CALLS_IN_FLIGHT) return this.refuse(id, `beyond ${MAX_CALLS_IN_FLIGHT} in flight`), null;
    const stream = typeof accept === 'string' && accept.toLowerCase().includes('text/event-stream');
    // a delivery is named only for a chat call answered whole; a name that cannot be a delivery id is ignored
    const named = kind === 'chat' && !stream && typeof final === 'string' && final !== '' && final.length <= MAX_ID_LENGTH ? final : null;
    return { id, call: { kind, token: this.o.gatewayToken, stream, body }, final: named };
  }

  /** The answer as the named delivery's reply: true when it was one (2xx JSON, {content, model, usage}) and someone waited for it. */
  private takeAsReply(delivery: string, status: number, contentType: string, body: string): boolean {
    if (status < 200 || status > 299 || !contentType.toLowerCase().includes('application/json')) return false;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return false;
    }
    const result = parseChatResult(parsed);
    return result !== null && this.o.reply(delivery, result);
  }

  private call(m: HostMessage): void {
    const opened = this.open(m as unknown as Record<string, unknown>);
    if (!opened) return;
    const { id, call, final } = opened;
    const controller = new AbortController();
    this.byId.set(id, controller);
    const { signal } = controller;
    const { send } = this.o;
    // after an abort nothing more is sent for the call: the host forgot it
    const live = () => !signal.aborted;
    const close = () => {
      if (this.byId.get(id) === controller) this.byId.delete(id);
    };
    const lost = () => {
      controller.abort(); // the channel closed: nobody reads the rest
      close();
    };
    // An answer given whole at once (a JSON answer: head, body, end in one go) leaves as one
    // `service-answer`; a streamed one as `service-head`, then its pieces as they come. The head
    // waits for what follows it in the same turn: one message (a write, a read, a parse on each
    // side) instead of three.
    let head: { status: number; contentType: string } | null = null;
    let held = '';
    const flushHead = () => {
      if (!head || !live()) return;
      const { status, contentType } = head;
      head = null;
      if (!send({ ...msg, type: 'service-head', id, status, contentType })) return lost();
      if (held !== '' && !send({ ...msg, type: 'service-chunk', id, data: held })) lost();
      held = '';
    };
    const answer: HostCallAnswer = {
      head: (status, contentType) => {
        head = { status, contentType };
        queueMicrotask(flushHead);
      },
      chunk: (data) => {
        if (!live() || data === '') return;
        if (head) held += data;
        else if (!send({ ...msg, type: 'service-chunk', id, data })) lost();
      },
      end: () => {
        if (!live()) return;
        if (head) {
          const { status, contentType } = head;
          head = null;
          // the named delivery's reply is this answer: the host only hears that it is done
          if (final !== null && this.takeAsReply(final, status, contentType, held)) send({ ...msg, type: 'service-final', id });
          else send({ ...msg, type: 'service-answer', id, status, contentType, data: held });
        } else send({ ...msg, type: 'service-end', id });
      },
    };
    let answering: Promise<void>;
    try {
      answering = this.o.calls().answer(call, answer, signal);
    } catch (err) {
      answering = Promise.reject(err as Error);
    }
    answering
      .catch((err: unknown) => {
        // after the host's own abort the failure is that abort: nothing to say
        if (!live()) return;
        // the service could not be reached or broke off: the host must not wait for its idle timeout
        this.o.log(`host call relay: a call failed: ${(err as Error)?.message ?? String(err)}`);
        flushHead();
        send({ ...msg, type: 'service-error', id });
      })
      .finally(close);
  }
}
