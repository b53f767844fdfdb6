import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAgentImage } from '../../../scripts/build-agent-image.mjs';

/** One node of the test's swarm: its own dockerd, data root and socket. */
export interface SwarmNode {
  name: 'node1' | 'node2';
  /** DOCKER_HOST of this node's daemon (a unix socket: it reaches across network namespaces). */
  host: string;
  /** The node's address on the test's private /24 (node 1 in this machine's namespace, node 2 in its own). */
  address: string;
  /** The docker CLI against this node (output trimmed); throws on failure. */
  docker: (...args: string[]) => string;
  /** Swarm's id of the node. */
  id: string;
}

export interface TwoNodeSwarm {
  /** The manager (node 1, in this machine's network namespace). */
  manager: SwarmNode;
  /** The worker node, in its own network namespace. */
  worker: SwarmNode;
  /** The agent-host image, loaded on both nodes. */
  image: string;
  /** This machine's address on the private /24 (node 1's too): what both nodes' containers reach it at. */
  hostAddress: string;
  /** kill -9 of node 2's dockerd: its containers keep running (their shims survive), the manager loses it. */
  killWorker: () => void;
  /** Starts node 2's dockerd again on the same data root: it rejoins and stops what Swarm no longer wants there. */
  restartWorker: () => Promise<void>;
  stop: () => Promise<void>;
}

/** Why the swarm tests cannot run here, or null when they can. */
export function swarmSkipReason(): string | null {
  if (process.getuid?.() !== 0) return 'a two-node swarm needs root (a network namespace, a veth pair and two dockerds)';
  if (!existsSync('/usr/sbin/dockerd') && !onPath('dockerd')) return "there is no dockerd: install Debian's docker.io";
  if (!onPath('docker')) return 'dockerd is here but the docker CLI is not';
  if (!onPath('ip') || !onPath('nsenter')) return 'the `ip` and `nsenter` tools are needed for the second node';
  return null;
}

/**
 * A real two-node Docker Swarm on this machine, made for one test file and removed by `stop`:
 * node 1 (the manager) is a private dockerd in this machine's network namespace, node 2 a private
 * dockerd started with `nsenter --net` in a network namespace of its own (`ip netns exec` would
 * remount /sys and break dockerd's cgroups), the two joined by a veth pair on a private /24 that
 * exists only here. Both daemons run with no bridge and no iptables rules (the tests' services
 * use the node's own network, `host`: the container on node 2 lives in node 2's namespace). The
 * image is built offline on node 1 and imported on node 2 (no registry). The dispatcher heartbeat
 * is 1 s, so a dead node is seen in a few seconds rather than in fifteen.
 *
 * `stop` removes the services, leaves the swarm, stops both daemons (and whatever a killed daemon
 * left running: its shims and containers), unmounts and deletes their folders, and deletes the
 * namespace and the veth pair.
 */
export async function startTwoNodeSwarm(log: (m: string) => void = () => undefined): Promise<TwoNodeSwarm> {
  const tag = `${process.pid % 1000}${randomInt(100, 999)}`;
  const netns = `swt${tag}`;
  const vethHost = `swh${tag}`;
  const vethNode = `swn${tag}`;
  const subnet = `10.${randomInt(100, 250)}.${randomInt(1, 250)}`;
  const hostAddress = `${subnet}.1`;
  const nodeAddress = `${subnet}.2`;
  const dir = mkdtempSync(join(tmpdir(), 'swarm-'));
  const daemons: { name: 'node1' | 'node2'; child: ChildProcess | null; dir: string; env: NodeJS.ProcessEnv; args: string[] }[] = [];
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 }).trim();
  const tryRun = (cmd: string, args: string[]) => {
    try {
      return run(cmd, args);
    } catch {
      return null;
    }
  };

  const startDaemon = async (d: (typeof daemons)[number]) => {
    const [cmd, ...args] = d.args;
    // the daemon's own temporary files (containerd writes its goroutine dumps there) stay in its folder
    const tmp = join(d.dir, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const child = spawn(cmd!, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TMPDIR: tmp } });
    const stderr: string[] = [];
    child.stderr!.on('data', (b: Buffer) => stderr.push(b.toString()));
    d.child = child;
    const deadline = Date.now() + 30_000;
    while (cli(d.env, ['version', '--format', '{{.Server.APIVersion}}']) === null) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`dockerd of ${d.name} did not start: ${stderr.join('').trim().split('\n').slice(-3).join(' | ')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const daemonArgs = (name: string) => {
    const root = join(dir, name);
    return {
      root,
      args: [
        'dockerd',
        '--data-root', join(root, 'data'),
        '--exec-root', join(root, 'exec'),
        '--pidfile', join(root, 'dockerd.pid'),
        '--host', `unix://${join(root, 'docker.sock')}`,
        '--bridge', 'none', '--iptables=false', '--ip6tables=false', '--ip-masq=false',
        '--log-level', 'error',
      ],
    };
  };

  const stopDaemon = async (d: (typeof daemons)[number]) => {
    const child = d.child;
    d.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };

  const stop = async () => {
    for (const d of [...daemons].reverse()) {
      if (d.child) {
        const ids = cli(d.env, ['service', 'ls', '-q'])?.split('\n').filter(Boolean) ?? [];
        if (ids.length > 0) cli(d.env, ['service', 'rm', ...ids]);
        const cs = cli(d.env, ['ps', '-aq'])?.split('\n').filter(Boolean) ?? [];
        if (cs.length > 0) cli(d.env, ['rm', '-f', ...cs]);
        cli(d.env, ['swarm', 'leave', '--force']);
        cli(d.env, ['network', 'rm', 'docker_gwbridge']);
      }
      await stopDaemon(d);
    }
    // a daemon killed hard leaves its containerd, shims and containers: whatever runs from its folders
    killWhatRunsFrom(dir);
    const mounts = readFileSync('/proc/mounts', 'utf8').split('\n').map((l) => l.split(' ')[1] ?? '').filter((m) => m.startsWith(dir));
    for (const m of mounts.reverse()) tryRun('umount', ['-l', m]);
    tryRun('ip', ['link', 'del', vethHost]);
    tryRun('ip', ['netns', 'del', netns]);
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      log(`two-node swarm: ${dir} stays: ${(err as Error).message}`);
    }
    process.off('exit', lastResort);
  };
  // the test process ends without `stop` (a hook timed out, the run was cut short): the daemons,
  // their containers, the namespace and the veth go with it all the same
  const lastResort = () => {
    for (const d of daemons) d.child?.kill('SIGKILL');
    killWhatRunsFrom(dir);
    const mounts = readFileSync('/proc/mounts', 'utf8').split('\n').map((l) => l.split(' ')[1] ?? '').filter((m) => m.startsWith(dir));
    for (const m of mounts.reverse()) tryRun('umount', ['-l', m]);
    tryRun('ip', ['link', 'del', vethHost]);
    tryRun('ip', ['netns', 'del', netns]);
  };
  process.once('exit', lastResort);

  try {
    run('ip', ['netns', 'add', netns]);
    run('ip', ['link', 'add', vethHost, 'type', 'veth', 'peer', 'name', vethNode]);
    run('ip', ['link', 'set', vethNode, 'netns', netns]);
    run('ip', ['addr', 'add', `${hostAddress}/24`, 'dev', vethHost]);
    run('ip', ['link', 'set', vethHost, 'up']);
    run('ip', ['-n', netns, 'addr', 'add', `${nodeAddress}/24`, 'dev', vethNode]);
    run('ip', ['-n', netns, 'link', 'set', vethNode, 'up']);
    run('ip', ['-n', netns, 'link', 'set', 'lo', 'up']);

    const n1 = daemonArgs('node1');
    const n2 = daemonArgs('node2');
    daemons.push({ name: 'node1', child: null, dir: n1.root, env: { ...process.env, DOCKER_HOST: `unix://${join(n1.root, 'docker.sock')}` }, args: n1.args });
    daemons.push({ name: 'node2', child: null, dir: n2.root, env: { ...process.env, DOCKER_HOST: `unix://${join(n2.root, 'docker.sock')}` }, args: ['nsenter', `--net=/run/netns/${netns}`, ...n2.args] });
    await Promise.all(daemons.map(startDaemon));
    const [d1, d2] = daemons as [(typeof daemons)[number], (typeof daemons)[number]];
    const port = 20_000 + randomInt(0, 20_000);
    cliOrThrow(d1.env, ['swarm', 'init', '--advertise-addr', hostAddress, '--listen-addr', `${hostAddress}:${port}`, '--dispatcher-heartbeat', '1s', '--data-path-port', String(port + 1)]);
    const token = cliOrThrow(d1.env, ['swarm', 'join-token', '-q', 'worker']);
    cliOrThrow(d2.env, ['swarm', 'join', '--token', token, '--advertise-addr', nodeAddress, '--listen-addr', `${nodeAddress}:${port}`, `${hostAddress}:${port}`]);
    const [image] = await Promise.all([buildAgentImage({ env: d1.env }), buildAgentImage({ env: d2.env })]);
    const node = (d: (typeof daemons)[number], address: string): SwarmNode => ({
      name: d.name,
      host: d.env.DOCKER_HOST!,
      address,
      docker: (...args) => cliOrThrow(d.env, args),
      id: cliOrThrow(d.env, ['info', '--format', '{{.Swarm.NodeID}}']),
    });
    log(`two-node swarm: manager ${d1.env.DOCKER_HOST} at ${hostAddress}, worker ${d2.env.DOCKER_HOST} at ${nodeAddress} (namespace ${netns}), image ${image}`);
    return {
      manager: node(d1, hostAddress),
      worker: node(d2, nodeAddress),
      image: image as string,
      hostAddress,
      killWorker: () => d2.child?.kill('SIGKILL'),
      restartWorker: async () => {
        if (d2.child && d2.child.exitCode === null && d2.child.signalCode === null) {
          await new Promise((r) => d2.child!.once('exit', r));
        }
        // its pid file names a dead process: the daemon starts again on the same data root
        rmSync(join(d2.dir, 'dockerd.pid'), { force: true });
        await startDaemon(d2);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Kills whatever runs from `dir` (containerd, shims), the containers' processes (the shims' children) first. */
function killWhatRunsFrom(dir: string): void {
  const ours = new Set<number>();
  const parents = new Map<number, number>();
  for (const pid of readdirPids()) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)) ours.add(pid);
      parents.set(pid, Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  // the containers' processes first (children of the shims), then the shims and containerd
  for (const [pid, parent] of parents) if (ours.has(parent) && !ours.has(pid)) kill9(pid);
  for (const pid of ours) kill9(pid);
}

function kill9(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

function cli(env: NodeJS.ProcessEnv, args: string[]): string | null {
  try {
    return cliOrThrow(env, args);
  } catch {
    return null;
  }
}

function cliOrThrow(env: NodeJS.ProcessEnv, args: string[]): string {
  return execFileSync('docker', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 }).trim();
}

function readdirPids(): number[] {
  return execFileSync('ls', ['/proc'], { encoding: 'utf8' })
    .split('\n')
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(':').some((d) => d !== '' && existsSync(join(d, name)));
}
