import { msg, RUNTIME_CHAT_PATH, RUNTIME_TOOLS_PATH, type HostMessage, type SupervisorMessage } from '../../../../agent-host/agent-host-protocol.js';

type Call = Extract<HostMessage, { type: 'service-call' }>;
/** A request body above this is not a chat or tool call of ours. */
const MAX_BODY = 8 * 2 ** 20;
const PATHS = new Set([RUNTIME_CHAT_PATH, RUNTIME_TOOLS_PATH]);

/**
 * The supervisor's half of a container's service calls (AGENT_HOST_SERVICE_VIA=supervisor, the
 * container has no network): the program's `service-call` becomes a POST to this runtime's
 * `serviceUrl` on one of the two runtime paths, with only the program's Authorization (its gateway
 * token, which the service checks) and Accept headers; the answer goes back as `service-head`,
 * `service-chunk`s and `service-end`. The program can reach nothing else through it: no other
 * path, host or method. Its calls end when the attach stream does (`endAll`).
 */
export class ServiceRelay {
  private readonly inFlight = new Map<string, AbortController>();

  constructor(
    private readonly serviceUrl: string,
    private readonly send: (m: SupervisorMessage) => boolean,
    private readonly log: (line: string) => void,
  ) {}

  handle(m: HostMessage): void {
    if (m.type === 'service-abort') {
      this.inFlight.get(m.id)?.abort();
      this.inFlight.delete(m.id);
    } else if (m.type === 'service-call') void this.call(m);
  }

  endAll(): void {
    for (const c of this.inFlight.values()) c.abort();
    this.inFlight.clear();
  }

  private async call(m: Call): Promise<void> {
    const { id } = m;
    if (typeof id !== 'string' || this.inFlight.has(id)) return;
    if (!PATHS.has(m.path) || typeof m.body !== 'string' || m.body.length > MAX_BODY || typeof m.authorization !== 'string' || typeof m.accept !== 'string') {
      this.log('service relay: a call outside the runtime paths or malformed; refused');
      this.send({ ...msg, type: 'service-error', id });
      return;
    }
    const controller = new AbortController();
    this.inFlight.set(id, controller);
    try {
      const res = await fetch(`${this.serviceUrl.replace(/\/+$/, '')}${m.path}`, {
        method: 'POST',
        headers: { authorization: m.authorization, accept: m.accept, 'content-type': 'application/json' },
        body: m.body,
        signal: controller.signal,
      });
      this.send({ ...msg, type: 'service-head', id, status: res.status, contentType: res.headers.get('content-type') ?? '' });
      if (res.body) {
        const decoder = new TextDecoder();
        for await (const chunk of res.body) {
          const data = decoder.decode(chunk, { stream: true });
          if (data !== '' && !this.send({ ...msg, type: 'service-chunk', id, data })) throw new Error('the attach stream closed');
        }
      }
      this.send({ ...msg, type: 'service-end', id });
    } catch {
      // aborted by the program (nothing more to say), or the service could not be reached or broke off
      if (!controller.signal.aborted) this.send({ ...msg, type: 'service-error', id });
    } finally {
      this.inFlight.delete(id);
    }
  }
}
