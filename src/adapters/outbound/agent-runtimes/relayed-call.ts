import { msg, RUNTIME_CHAT_PATH, RUNTIME_TOOLS_PATH, type HostMessage, type SupervisorMessage } from '../../../agent-host/agent-host-protocol.js';

/** A program's `service-call`, as both relays receive it (the docker runtime's over HTTP, the process runtime's in-process). */
export type RelayedCall = Extract<HostMessage, { type: 'service-call' }>;

/** A request body above this is not a chat or tool call of ours (the answer's own limit is the service's). */
const MAX_BODY = 8 * 2 ** 20;

const KINDS = new Map([
  [RUNTIME_CHAT_PATH, 'chat'],
  [RUNTIME_TOOLS_PATH, 'tools'],
] as const);

/**
 * The calls a relay is answering for one program, by the program's call id: the bookkeeping both
 * relays share (`service-call`, `service-abort`, the program's end) and the one rule by which they
 * refuse a call, so a program can reach nothing else through either.
 */
export class CallsInFlight {
  private readonly byId = new Map<string, AbortController>();

  constructor(
    private readonly send: (m: SupervisorMessage) => boolean,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * A new call's kind and its controller (aborted by `abort` and `abortAll`); null when it is not
   * to be answered: an id that is not text or already in flight is ignored, and a call outside the
   * two runtime paths or malformed (a field that is not text, a body over 8 MiB) is refused with
   * `service-error`.
   */
  open(m: RelayedCall): { kind: 'chat' | 'tools'; controller: AbortController } | null {
    const { id } = m;
    if (typeof id !== 'string' || this.byId.has(id)) return null;
    const kind = KINDS.get(m.path as never);
    if (!kind || typeof m.body !== 'string' || m.body.length > MAX_BODY || typeof m.authorization !== 'string' || typeof m.accept !== 'string') {
      this.log('service relay: a call outside the runtime paths or malformed; refused');
      this.send({ ...msg, type: 'service-error', id });
      return null;
    }
    const controller = new AbortController();
    this.byId.set(id, controller);
    return { kind, controller };
  }

  /** The call is over: forgotten (unless its id already names another call). */
  close(id: string, controller: AbortController): void {
    if (this.byId.get(id) === controller) this.byId.delete(id);
  }

  /** `service-abort`: the program dropped the call. */
  abort(id: string): void {
    this.byId.get(id)?.abort();
    this.byId.delete(id);
  }

  /** The program ended: every call of it aborted. */
  abortAll(): void {
    for (const c of this.byId.values()) c.abort();
    this.byId.clear();
  }
}
