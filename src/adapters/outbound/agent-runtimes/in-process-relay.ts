import type { RuntimeServiceCalls } from '../../../application/ports/runtime-service-calls.port.js';
import { msg, type HostMessage, type SupervisorMessage } from '../../../agent-host/agent-host-protocol.js';
import { CallsInFlight, type RelayedCall } from './relayed-call.js';

/**
 * The supervisor's half of a program's service calls when they are answered in this process
 * (AGENT_HOST_SERVICE_VIA=supervisor on a process runtime): the program's `service-call` is handed
 * to the service's own answers (RuntimeServiceCalls, the work behind `POST /api/runtime/chat` and
 * `/api/runtime/tools`), and what they answer goes back as `service-head`, `service-chunk`s and
 * `service-end`, as the docker runtime's HTTP relay (service-relay.ts) sends an HTTP answer (an
 * answer whole at once as one `service-answer`). The program can reach nothing else through it: two paths, its own token checked as over
 * HTTP. `service-abort` (or the program's end: `endAll`) aborts the call, so its provider call
 * stops and its reservation is released, as when an HTTP client goes away.
 */
export class InProcessRelay {
  private readonly inFlight: CallsInFlight;

  constructor(
    /** Resolved at the first call: the answers need use cases registered after the runtime. */
    private readonly calls: () => RuntimeServiceCalls,
    private readonly send: (m: SupervisorMessage) => boolean,
    private readonly log: (line: string) => void,
  ) {
    this.inFlight = new CallsInFlight(send, log);
  }

  /** `service-call` or `service-abort`; false for any other message (not the relay's). */
  handle(m: HostMessage): boolean {
    if (m.type === 'service-abort') {
      this.inFlight.abort(m.id);
      return true;
    }
    if (m.type !== 'service-call') return false;
    this.call(m);
    return true;
  }

  endAll(): void {
    this.inFlight.abortAll();
  }

  private call(m: RelayedCall): void {
    const opened = this.inFlight.open(m);
    if (!opened) return;
    const { id } = m;
    const { kind, controller } = opened;
    const { signal } = controller;
    // after an abort nothing more is sent for the call: the program forgot it
    const live = () => !signal.aborted;
    const lost = () => {
      controller.abort(); // the channel closed: nobody reads the rest
      this.inFlight.close(id, controller);
    };
    // An answer given whole at once (a JSON answer: head, body, end in one go) leaves as one
    // `service-answer`; a streamed one as `service-head`, then its pieces as they come. The head
    // waits for what follows it in the same turn: one IPC message (a write, a read, a parse on
    // each side) instead of three.
    let head: { status: number; contentType: string } | null = null;
    let held = '';
    const flushHead = () => {
      if (!head || !live()) return;
      const { status, contentType } = head;
      head = null;
      if (!this.send({ ...msg, type: 'service-head', id, status, contentType })) return lost();
      if (held !== '' && !this.send({ ...msg, type: 'service-chunk', id, data: held })) lost();
      held = '';
    };
    const answer = {
      head: (status: number, contentType: string) => {
        head = { status, contentType };
        queueMicrotask(flushHead);
      },
      chunk: (data: string) => {
        if (!live() || data === '') return;
        if (head) held += data;
        else if (!this.send({ ...msg, type: 'service-chunk', id, data })) lost();
      },
      end: () => {
        if (!live()) return;
        if (head) {
          const { status, contentType } = head;
          head = null;
          this.send({ ...msg, type: 'service-answer', id, status, contentType, data: held });
        } else this.send({ ...msg, type: 'service-end', id });
      },
    };
    let answering: Promise<void>;
    try {
      answering = this.calls().answer({ kind, authorization: m.authorization, accept: m.accept, body: m.body }, answer, signal);
    } catch (err) {
      answering = Promise.reject(err as Error);
    }
    answering
      .catch((err: unknown) => {
        // the answers never reject by contract; if they did, the program must not wait for its idle timeout
        this.log(`service relay: an in-process call failed: ${(err as Error)?.message ?? String(err)}`);
        if (live()) this.send({ ...msg, type: 'service-error', id });
      })
      .finally(() => {
        this.inFlight.close(id, controller);
      });
  }
}
