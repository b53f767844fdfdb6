import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { msg, type HostMessage, type SupervisorMessage } from '../../../../agent-host/agent-host-protocol.js';
import { CallsInFlight, type RelayedCall } from '../relayed-call.js';

/**
 * Connections to the service, kept open between calls and shared by every container's relay in
 * this process (a free one is unreferenced: it keeps nothing alive). Node's agent closes a free
 * connection before the service's advertised keep-alive timeout runs out.
 */
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/**
 * The supervisor's half of a container's service calls (AGENT_HOST_SERVICE_VIA=supervisor, the
 * container has no network): the program's `service-call` becomes a POST to this runtime's
 * `serviceUrl` on one of the two runtime paths, with only the program's Authorization (its gateway
 * token, which the service checks) and Accept headers; the answer goes back as `service-head`,
 * `service-chunk`s and `service-end`. The program can reach nothing else through it: no other
 * path, host or method. Its calls end when the attach stream does (`endAll`).
 *
 * node:http on a keep-alive agent rather than fetch: the call runs in the worker's own event loop
 * (with SERVICE_ROLE=all, the loop that also serves the call), where fetch's WHATWG streams cost
 * several times node:http's CPU per call.
 */
export class ServiceRelay {
  private readonly inFlight: CallsInFlight;
  private readonly base: URL;

  constructor(
    serviceUrl: string,
    private readonly send: (m: SupervisorMessage) => boolean,
    private readonly log: (line: string) => void,
  ) {
    this.base = new URL(serviceUrl);
    this.inFlight = new CallsInFlight(send, log);
  }

  handle(m: HostMessage): void {
    if (m.type === 'service-abort') this.inFlight.abort(m.id);
    else if (m.type === 'service-call') this.call(m);
  }

  endAll(): void {
    this.inFlight.abortAll();
  }

  private call(m: RelayedCall): void {
    const opened = this.inFlight.open(m);
    if (!opened) return;
    const { id } = m;
    const { controller } = opened;
    let settled = false;
    /** Once per call: `service-end` after the whole answer, else `service-error` (not after the program's own abort). */
    const settle = (ok: boolean) => {
      if (settled) return;
      settled = true;
      this.inFlight.close(id, controller);
      if (ok) this.send({ ...msg, type: 'service-end', id });
      else if (!controller.signal.aborted) this.send({ ...msg, type: 'service-error', id });
    };
    const https = this.base.protocol === 'https:';
    const body = Buffer.from(m.body);
    const req = (https ? httpsRequest : httpRequest)(
      {
        protocol: this.base.protocol,
        hostname: this.base.hostname,
        port: this.base.port,
        path: `${this.base.pathname.replace(/\/+$/, '')}${m.path}`,
        method: 'POST',
        agent: https ? agents.https : agents.http,
        headers: { authorization: m.authorization, accept: m.accept, 'content-type': 'application/json', 'content-length': body.length },
        signal: controller.signal,
      },
      (res: IncomingMessage) => {
        this.send({ ...msg, type: 'service-head', id, status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? '' });
        res.setEncoding('utf8'); // a character split between two reads arrives whole in the later chunk
        res.on('data', (data: string) => {
          if (data !== '' && !this.send({ ...msg, type: 'service-chunk', id, data })) {
            controller.abort(); // the attach stream closed: nobody reads the rest
            settle(false);
          }
        });
        res.on('end', () => settle(true));
        // closed before its end: the service broke off (or the call was aborted)
        res.on('close', () => settle(res.complete));
        res.on('error', () => settle(false));
      },
    );
    // the service could not be reached, the connection broke, or the program aborted the call
    req.on('error', () => settle(false));
    req.end(body);
  }
}
