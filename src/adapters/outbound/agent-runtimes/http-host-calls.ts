import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { HostCall, HostCallAnswer, HostCalls } from '../../../application/ports/host-calls.port.js';
import { RUNTIME_CHAT_PATH, RUNTIME_TOOLS_PATH } from '../../../agent-host/agent-host-protocol.js';

/**
 * Connections to the service, kept open between calls and shared by every relay in this process (a
 * free one is unreferenced: it keeps nothing alive). Node's agent closes a free connection before
 * the service's advertised keep-alive timeout runs out.
 */
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

const PATHS: Record<HostCall['kind'], string> = { chat: RUNTIME_CHAT_PATH, tools: RUNTIME_TOOLS_PATH };

/** What a header may hold (RFC 9110 field-value: visible ASCII and spaces): a token outside it is never sent. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/**
 * A host's calls made to the service's door over HTTP (`serviceUrl`), for a host the worker relays
 * (a network-less container) when this process does not answer them itself: a POST to one of the
 * two runtime paths, with headers this side writes whole (the instance's token, the Accept the call
 * asks for, JSON) and nothing the host wrote but the body. The answer is passed on as it arrives.
 *
 * node:http on a keep-alive agent rather than fetch: the call runs in the worker's own event loop
 * (with SERVICE_ROLE=all, the loop that also serves the call), where fetch's WHATWG streams cost
 * several times node:http's CPU per call.
 */
export class HttpHostCalls implements HostCalls {
  private readonly base: URL;

  constructor(serviceUrl: string) {
    this.base = new URL(serviceUrl);
  }

  answer(call: HostCall, to: HostCallAnswer, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const { token } = call;
      if (token === undefined || !HEADER_SAFE.test(token)) return reject(new Error('no instance token, or one that is not header-safe'));
      const https = this.base.protocol === 'https:';
      const body = Buffer.from(call.body);
      let settled = false;
      /** Once per call: resolved after the whole answer, else rejected. */
      const settle = (err: Error | null) => {
        if (settled) return;
        settled = true;
        if (err) reject(err);
        else resolve();
      };
      const req = (https ? httpsRequest : httpRequest)(
        {
          protocol: this.base.protocol,
          hostname: this.base.hostname,
          port: this.base.port,
          path: `${this.base.pathname.replace(/\/+$/, '')}${PATHS[call.kind]}`,
          method: 'POST',
          agent: https ? agents.https : agents.http,
          headers: { authorization: `Bearer ${token}`, accept: call.stream ? 'text/event-stream' : 'application/json', 'content-type': 'application/json', 'content-length': body.length },
          signal,
        },
        (res: IncomingMessage) => {
          to.head(res.statusCode ?? 0, res.headers['content-type'] ?? '');
          res.setEncoding('utf8'); // a character split between two reads arrives whole in the later chunk
          res.on('data', (data: string) => to.chunk(data));
          res.on('end', () => {
            to.end();
            settle(null);
          });
          // closed before its end: the service broke off (or the call was aborted)
          res.on('close', () => settle(res.complete ? null : new Error('the service broke off the answer')));
          res.on('error', (err) => settle(err));
        },
      );
      // the service could not be reached, the connection broke, or the host aborted the call
      req.on('error', (err) => settle(err));
      req.end(body);
    });
  }
}
