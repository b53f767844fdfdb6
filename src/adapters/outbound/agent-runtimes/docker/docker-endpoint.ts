import { readFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';

/**
 * Where the Docker Engine API is, as the docker CLI reads it: DOCKER_HOST `unix:///path` (or a
 * bare path) or `tcp://host:port`; with DOCKER_TLS_VERIFY set, TLS with the client certificate
 * from DOCKER_CERT_PATH under the CLI's file names `ca.pem`, `cert.pem`, `key.pem`, and the
 * daemon's certificate checked against that CA. `tcp://` without DOCKER_TLS_VERIFY is plain HTTP
 * (only sensible on loopback, as the CLI warns too).
 */
export type DockerEndpoint =
  | { kind: 'unix'; socketPath: string }
  | { kind: 'tcp'; host: string; port: number; tls: { ca: Buffer; cert: Buffer; key: Buffer } | null };

export interface DockerHostSettings {
  /** DOCKER_HOST: `unix:///var/run/docker.sock`, `/var/run/docker.sock` or `tcp://10.0.0.5:2376`. */
  host: string;
  /** DOCKER_TLS_VERIFY: TLS with the client certificate, the daemon checked against the CA. */
  tlsVerify: boolean;
  /** DOCKER_CERT_PATH: the folder of ca.pem, cert.pem and key.pem (the CLI's default is ~/.docker). */
  certPath: string;
}

/** Parses the settings once (boot fails here, naming the file, when a certificate is missing). */
export function dockerEndpoint(s: DockerHostSettings): DockerEndpoint {
  if (s.host.startsWith('/')) return { kind: 'unix', socketPath: s.host };
  const url = new URL(s.host);
  if (url.protocol === 'unix:') return { kind: 'unix', socketPath: url.pathname };
  if (url.protocol !== 'tcp:' && url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`DOCKER_HOST ${s.host}: only unix:// and tcp:// are supported`);
  const tls = s.tlsVerify || url.protocol === 'https:';
  const port = url.port ? Number(url.port) : tls ? 2376 : 2375;
  const read = (name: string) => {
    try {
      return readFileSync(join(s.certPath, name));
    } catch {
      throw new Error(`DOCKER_TLS_VERIFY is set but ${join(s.certPath, name)} cannot be read (DOCKER_CERT_PATH holds ca.pem, cert.pem and key.pem)`);
    }
  };
  return { kind: 'tcp', host: url.hostname, port, tls: tls ? { ca: read('ca.pem'), cert: read('cert.pem'), key: read('key.pem') } : null };
}

/** An HTTP request to the daemon at `path` over the endpoint's transport (the caller ends it). */
export function engineRequest(endpoint: DockerEndpoint, options: RequestOptions & { path: string }, onResponse?: (res: IncomingMessage) => void): ClientRequest {
  if (endpoint.kind === 'unix') return httpRequest({ ...options, socketPath: endpoint.socketPath }, onResponse);
  const base = { ...options, host: endpoint.host, port: endpoint.port };
  if (!endpoint.tls) return httpRequest(base, onResponse);
  // the daemon's certificate is checked against the CA alone (the system's roots are not trusted here)
  return httpsRequest({ ...base, ca: endpoint.tls.ca, cert: endpoint.tls.cert, key: endpoint.tls.key, agent: false }, onResponse);
}

/** For logs and errors: where the daemon is, never a key. */
export function describeEndpoint(e: DockerEndpoint): string {
  return e.kind === 'unix' ? `unix://${e.socketPath}` : `tcp://${e.host}:${e.port}${e.tls ? ' (TLS)' : ''}`;
}
