import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dockerEndpoint } from '../../../../src/adapters/outbound/agent-runtimes/docker/docker-endpoint.js';

describe('DOCKER_HOST as the docker CLI reads it', () => {
  it('when it is a unix socket (URL or bare path), then the runtime speaks to that socket', () => {
    expect(dockerEndpoint({ host: 'unix:///var/run/docker.sock', tlsVerify: false, certPath: '' })).toEqual({ kind: 'unix', socketPath: '/var/run/docker.sock' });
    expect(dockerEndpoint({ host: '/run/user/docker.sock', tlsVerify: false, certPath: '' })).toEqual({ kind: 'unix', socketPath: '/run/user/docker.sock' });
  });

  it('when it is tcp://, then plain HTTP without DOCKER_TLS_VERIFY, TLS with the ca.pem, cert.pem and key.pem of DOCKER_CERT_PATH with it; port 2375 or 2376 by default', () => {
    expect(dockerEndpoint({ host: 'tcp://127.0.0.1:2375', tlsVerify: false, certPath: '' })).toEqual({ kind: 'tcp', host: '127.0.0.1', port: 2375, tls: null });
    const dir = mkdtempSync(join(tmpdir(), 'docker-certs-'));
    try {
      for (const f of ['ca.pem', 'cert.pem', 'key.pem']) writeFileSync(join(dir, f), f);
      const e = dockerEndpoint({ host: 'tcp://engine.internal', tlsVerify: true, certPath: dir });
      expect(e).toMatchObject({ kind: 'tcp', host: 'engine.internal', port: 2376 });
      expect(e.kind === 'tcp' && e.tls && [e.tls.ca, e.tls.cert, e.tls.key].map(String)).toEqual(['ca.pem', 'cert.pem', 'key.pem']);
      rmSync(join(dir, 'key.pem'));
      expect(() => dockerEndpoint({ host: 'tcp://engine.internal:2376', tlsVerify: true, certPath: dir })).toThrow(`${join(dir, 'key.pem')} cannot be read`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(() => dockerEndpoint({ host: 'ssh://user@engine', tlsVerify: false, certPath: '' })).toThrow(/only unix:\/\/ and tcp:\/\//);
  });
});
