import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A certificate authority made for one test run (openssl), a server certificate for 127.0.0.1
 * and a client certificate, laid out as dockerd's flags and the docker CLI expect them: the
 * client's folder holds `ca.pem`, `cert.pem` and `key.pem` (what DOCKER_CERT_PATH names).
 */
export function makeTestCertificates(dir: string) {
  mkdirSync(dir, { recursive: true });
  const f = (name: string) => join(dir, name);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  ssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=agent-host test CA', '-keyout', f('ca-key.pem'), '-out', f('ca.pem'));
  const issue = (name: string, subject: string, extensions: string) => {
    writeFileSync(f(`${name}.ext`), extensions);
    ssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', subject, '-keyout', f(`${name}-key.pem`), '-out', f(`${name}.csr`));
    ssl('x509', '-req', '-in', f(`${name}.csr`), '-CA', f('ca.pem'), '-CAkey', f('ca-key.pem'), '-CAcreateserial', '-days', '1', '-extfile', f(`${name}.ext`), '-out', f(`${name}.pem`));
  };
  issue('server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  issue('client', '/CN=agent-host tests', 'extendedKeyUsage=clientAuth\n');
  const clientDir = join(dir, 'client');
  mkdirSync(clientDir);
  copyFileSync(f('ca.pem'), join(clientDir, 'ca.pem'));
  copyFileSync(f('client.pem'), join(clientDir, 'cert.pem'));
  copyFileSync(f('client-key.pem'), join(clientDir, 'key.pem'));
  return { ca: f('ca.pem'), serverCert: f('server.pem'), serverKey: f('server-key.pem'), clientDir };
}
