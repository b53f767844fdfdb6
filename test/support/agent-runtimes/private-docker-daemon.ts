import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAgentImage } from '../../../scripts/build-agent-image.mjs';
import { freePort } from '../free-port.js';
import { makeTestCertificates } from './test-certificates.js';

/** What the docker tests are told: an engine to use, or why there is none. */
export type DockerEngineInfo =
  | {
      /** DOCKER_HOST of the engine (a unix socket, or the one the run was given). */
      host: string;
      /** The agent-host image built offline for this run (scripts/build-agent-image.mjs). */
      image: string;
      /** The private daemon's TLS listener on a loopback port, with the test CA's client files; null on a given engine. */
      tls: { host: string; certPath: string } | null;
    }
  | { skip: string };

/**
 * The Docker Engine for a test run, made on the first ask: the daemon at DOCKER_HOST when one is
 * set and answers; else, as root with `dockerd` installed, a private daemon of this run with its
 * own data root, exec root, pid file and socket in a temporary folder, no bridge and no iptables
 * rules (the containers run with `--network none`; nothing of the host's network is touched),
 * listening on a loopback port too, with TLS from a CA made for the run (the one test of
 * AGENT_DOCKER_NETWORK makes an internal network, a bridge interface on the host, talks only to
 * the host's address on it, and removes it). `stop` removes every container and network of the
 * private daemon, stops it (its containerd with it) and deletes the folder: no container, image
 * layer or network outlives the run. A given daemon is left as it was found but
 * for the image (content-tagged and kept for the next run).
 */
export function dockerEngineForRun(log: (m: string) => void) {
  let started: Promise<DockerEngineInfo> | null = null;
  let daemon: { child: ChildProcess; dir: string; env: NodeJS.ProcessEnv } | null = null;

  const start = async (): Promise<DockerEngineInfo> => {
    const given = process.env.DOCKER_HOST;
    if (given) {
      if (cli(process.env, ['version', '--format', '{{.Server.APIVersion}}']) === null) return { skip: `DOCKER_HOST=${given} does not answer` };
      return { host: given, image: await buildAgentImage({ env: process.env }), tls: null };
    }
    if (process.getuid?.() !== 0) return { skip: 'no DOCKER_HOST answers and a private dockerd needs root' };
    if (!existsSync('/usr/sbin/dockerd') && !onPath('dockerd')) return { skip: "no DOCKER_HOST answers and there is no dockerd: `bash .ci/run` installs Debian's docker.io" };
    if (!onPath('docker')) return { skip: 'dockerd is here but the docker CLI is not (it builds the image)' };

    const dir = mkdtempSync(join(tmpdir(), 'dockerd-'));
    const socket = join(dir, 'docker.sock');
    const tlsPort = await freePort();
    const certs = makeTestCertificates(join(dir, 'certs'));
    // the daemon's own temporary files (containerd writes its goroutine dumps there) stay in its folder
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    const child = spawn(
      'dockerd',
      [
        '--data-root', join(dir, 'data'),
        '--exec-root', join(dir, 'exec'),
        '--pidfile', join(dir, 'dockerd.pid'),
        '--host', `unix://${socket}`,
        '--host', `tcp://127.0.0.1:${tlsPort}`,
        '--tlsverify', '--tlscacert', certs.ca, '--tlscert', certs.serverCert, '--tlskey', certs.serverKey,
        '--bridge', 'none', '--iptables=false', '--ip6tables=false', '--ip-masq=false',
        '--log-level', 'warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], detached: false, env: { ...process.env, TMPDIR: tmp } },
    );
    const stderr: string[] = [];
    child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
    const env = { ...process.env, DOCKER_HOST: `unix://${socket}` };
    daemon = { child, dir, env };
    const deadline = Date.now() + 30_000;
    while (cli(env, ['version', '--format', '{{.Server.APIVersion}}']) === null) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop();
        return { skip: `the private dockerd did not start: ${stderr.join('').trim().split('\n').slice(-3).join(' | ')}` };
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const image = await buildAgentImage({ env });
    log(`private dockerd on ${env.DOCKER_HOST} (TLS on 127.0.0.1:${tlsPort}), image ${image}`);
    return { host: env.DOCKER_HOST, image, tls: { host: `tcp://127.0.0.1:${tlsPort}`, certPath: certs.clientDir } };
  };

  const stop = async () => {
    if (!daemon) return;
    const { child, dir, env } = daemon;
    daemon = null;
    const ids = cli(env, ['ps', '-aq'])?.split('\n').filter(Boolean) ?? [];
    if (ids.length > 0) cli(env, ['rm', '-f', ...ids]);
    // a network a test made (its bridge interface is the host's) and could not remove
    cli(env, ['network', 'prune', '-f']);
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    // a daemon that died hard may leave its overlay mounts: unmount them before deleting the folder
    const mounts = readFileSync('/proc/mounts', 'utf8').split('\n').map((l) => l.split(' ')[1] ?? '').filter((m) => m.startsWith(dir));
    for (const m of mounts.reverse()) {
      try {
        execFileSync('umount', ['-l', m]);
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };

  return {
    info: () => (started ??= start().catch((err: Error) => ({ skip: `the docker engine could not be prepared: ${err.message}` }))),
    stop,
  };
}

/** A docker CLI call's output, or null when it failed. */
function cli(env: NodeJS.ProcessEnv, args: string[]): string | null {
  try {
    return execFileSync('docker', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 }).trim();
  } catch {
    return null;
  }
}

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(':').some((d) => d !== '' && existsSync(join(d, name)));
}
