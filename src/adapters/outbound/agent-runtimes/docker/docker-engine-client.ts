import type { Duplex } from 'node:stream';
import { RuntimeUnavailableError } from '../../../../application/agents/runtime.errors.js';
import { engineRequest, type DockerEndpoint } from './docker-endpoint.js';

/**
 * The Engine API version every path is pinned to: 1.41 is Docker 20.10's (Debian 12's docker.io),
 * and every later daemon serves it too. Nothing newer is used.
 */
export const DOCKER_API_VERSION = 'v1.41';

/** The Host header: a unix socket has no host name; over TCP node's own (host:port) is kept so TLS checks the daemon's name. */
const hostHeader = (e: DockerEndpoint): Record<string, string> => (e.kind === 'unix' ? { host: 'docker' } : {});

export interface EngineResponse {
  status: number;
  /** Parsed JSON, or null for an empty body (204, 304). */
  body: unknown;
}

/**
 * The few Docker Engine API calls the docker runtime makes, over the daemon's unix socket or TCP
 * (with TLS when configured: docker-endpoint.ts), with node:http. Every call has a timeout; a refused socket, a timeout or a 5xx becomes
 * RuntimeUnavailableError (CONTRACT.md section 8: 502); other statuses are returned for the caller
 * to judge (404 gone, 304 already so, 409 name in use). Stateless: safe to call concurrently.
 */
export class DockerEngineClient {
  constructor(
    private readonly endpoint: DockerEndpoint,
    private readonly defaultTimeoutMs: number,
  ) {}

  async call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, timeoutMs = this.defaultTimeoutMs): Promise<EngineResponse> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const res = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = engineRequest(
        this.endpoint,
        {
          method,
          path: `/${DOCKER_API_VERSION}${path}`,
          headers: { ...hostHeader(this.endpoint), ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}) },
          timeout: timeoutMs,
        },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          r.on('error', reject);
        },
      );
      // `timeout` fires on socket inactivity; the whole call is bounded too
      const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.on('close', () => clearTimeout(deadline));
      req.end(payload);
    }).catch((err: unknown) => {
      throw new RuntimeUnavailableError(`Docker Engine ${method} ${path.split('?')[0]} failed: ${(err as Error).message}`);
    });
    if (res.status >= 500) throw new RuntimeUnavailableError(`Docker Engine ${method} ${path.split('?')[0]} answered ${res.status}: ${messageOf(res.text)}`);
    let parsed: unknown = null;
    if (res.text.length > 0) {
      try {
        parsed = JSON.parse(res.text);
      } catch {
        throw new RuntimeUnavailableError(`Docker Engine ${method} ${path.split('?')[0]} answered something other than JSON`);
      }
    }
    return { status: res.status, body: parsed };
  }
}

/**
 * `POST /containers/{id}/attach` with stdin, stdout and stderr, hijacked (`Upgrade: tcp`, answered
 * 101): the raw connection, which stays open while the container runs. Anything else than the
 * upgrade, or no answer within `timeoutMs`, is RuntimeUnavailableError.
 */
export function attachContainer(endpoint: DockerEndpoint, id: string, timeoutMs: number): Promise<Duplex> {
  return new Promise<Duplex>((resolve, reject) => {
    const req = engineRequest(endpoint, {
      method: 'POST',
      path: `/${DOCKER_API_VERSION}/containers/${id}/attach?stream=1&stdin=1&stdout=1&stderr=1`,
      headers: { ...hostHeader(endpoint), connection: 'Upgrade', upgrade: 'tcp' },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('upgrade', (_res, socket, head) => {
      clearTimeout(timer);
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      reject(new Error(`answered ${res.statusCode} instead of upgrading`));
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end();
  }).catch((err: unknown) => {
    throw new RuntimeUnavailableError(`Docker Engine attach failed: ${(err as Error).message}`);
  });
}

/** The daemon's `{message}`, cut short (it may echo what it was sent, never a secret of ours in a path). */
function messageOf(text: string): string {
  try {
    const m = (JSON.parse(text) as { message?: unknown }).message;
    return typeof m === 'string' ? m.slice(0, 200) : '';
  } catch {
    return '';
  }
}
