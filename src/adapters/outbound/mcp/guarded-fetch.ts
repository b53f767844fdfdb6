import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isForbiddenAddress } from '../webhooks/http-webhook-delivery.js';

/** What went wrong in a guarded fetch that its caller cannot tell from the error alone. */
export interface GuardState {
  /** Why the address was refused (private or reserved, as resolved at connect). */
  refused: string | null;
  /** A response body passed the byte bound. */
  tooLarge: boolean;
}

export interface GuardPolicy {
  allowPrivate: boolean;
  /** The most bytes read from one response body. */
  maxResponseBytes: number;
}

/**
 * A `fetch` for the MCP SDK's transport over node:http(s), holding the outbound-address rule of
 * webhooks (decision 0029): the check runs inside the socket's own DNS lookup, so the address
 * checked is the one connected to (a name cannot resolve public for a check and private for the
 * connection); a literal address is checked before connecting. Redirects are never followed here
 * (the SDK decides on the 3xx it gets). Each response body is read up to `maxResponseBytes`.
 * `state` learns what was refused or cut, for the caller's error.
 */
export function guardedFetch(policy: GuardPolicy, state: GuardState): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input));
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(new TypeError(`unsupported scheme ${url.protocol}`));
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(host) && !policy.allowPrivate && isForbiddenAddress(host)) {
        state.refused = `${host} is a private or reserved address`;
        return reject(new Error(state.refused));
      }
      const lookup: LookupFunction = (hostname, options, callback) => {
        dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
          if (err) return callback(err, '', 0);
          const bad = policy.allowPrivate ? undefined : addresses.find((a) => isForbiddenAddress(a.address));
          if (bad) {
            state.refused = `${hostname} resolves to a private or reserved address`;
            return callback(new Error(state.refused), '', 0);
          }
          if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
          return callback(null, addresses[0]!.address, addresses[0]!.family);
        });
      };
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const body = typeof init?.body === 'string' ? init.body : init?.body == null ? undefined : String(init.body);
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const client = url.protocol === 'https:' ? https : http;
      const req = client.request(url, { method: init?.method ?? 'GET', headers, lookup, ...(init?.signal ? { signal: init.signal } : {}) }, (res) => {
        const status = res.statusCode ?? 502;
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
        }
        const empty = status === 204 || status === 304 || (init?.method ?? 'GET') === 'HEAD';
        resolve(new Response(empty ? null : boundedBody(res, policy.maxResponseBytes, state), { status: Math.min(599, Math.max(200, status)), statusText: res.statusMessage ?? '', headers: responseHeaders }));
        if (empty) res.resume();
      });
      req.on('error', reject);
      req.end(body);
    });
}

/** The response's bytes as a web stream, failing once more than `max` bytes came. */
function boundedBody(res: http.IncomingMessage, max: number, state: GuardState): ReadableStream<Uint8Array> {
  let finished = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let read = 0;
      const fail = (err: Error) => {
        if (finished) return;
        finished = true;
        controller.error(err);
      };
      res.on('data', (chunk: Buffer) => {
        if (finished) return;
        read += chunk.length;
        if (read > max) {
          state.tooLarge = true;
          fail(new Error(`the answer is larger than ${max} bytes`));
          res.destroy();
          return;
        }
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      });
      res.on('end', () => {
        if (finished) return;
        finished = true;
        controller.close();
      });
      res.on('error', fail);
      res.on('close', () => fail(new Error('the connection closed')));
    },
    cancel() {
      finished = true;
      res.destroy();
    },
  });
}
