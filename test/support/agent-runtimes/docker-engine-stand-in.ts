import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { agentHostEntry } from '../../../src/adapters/outbound/agent-runtimes/process/agent-host-entry.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanUpLater } from '../cleanup.js';

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent (version prefix included). */
  url: string;
  body: any;
}

interface Container {
  id: string;
  name: string;
  config: any;
  state: 'created' | 'running' | 'exited';
  exitCode: number;
  oomKilled: boolean;
  /** What runs "in" the container while it is running: the image's program, as a local process. */
  process: ChildProcess | null;
  /** Clients attached to its stdio (hijacked connections). */
  attached: Set<Duplex>;
}

/** Runs a container's image: by default the agent-host program, with the container's Env (and PATH) only. */
export type ImageRunner = (config: any) => ChildProcess;

const runAgentHost: ImageRunner = (config) => {
  const entry = agentHostEntry();
  const env = Object.fromEntries((config.Env as string[]).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  return spawn(process.execPath, [...entry.execArgv, entry.file], { env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
};

/** One frame of the multiplexed attach stream: stream type, three zero bytes, big-endian size, payload. */
const frame = (stream: 1 | 2, payload: Buffer) => {
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
};

/**
 * A stand-in Docker daemon: the Engine API (any version prefix) over a unix socket in a temp folder, answering
 * the documented JSON shapes for create, start, stop, restart, delete, inspect, list and
 * one-shot stats, and attach (hijacked with `Upgrade: tcp`, 101, stdout and stderr multiplexed
 * in 8-byte-header frames, stdin raw). A running container runs its image's program as a local
 * process (`run`; by default the agent-host program with only the container's Env), so attach
 * reaches a real program. It records every request, keeps containers in memory, and can be told
 * to fail (`failOn`) or never answer (`hangOn`) a path, or to end a container on its own (`exit`).
 */
export async function startDockerStandIn(options: { run?: ImageRunner } = {}) {
  const run = options.run ?? runAgentHost;
  const dir = mkdtempSync(join(tmpdir(), 'docker-stand-in-'));
  const socketPath = join(dir, 'docker.sock');
  const requests: RecordedRequest[] = [];
  const containers = new Map<string, Container>();
  const failures: { pattern: RegExp; status: number }[] = [];
  const hangs: RegExp[] = [];
  const hung: ServerResponse[] = [];
  let stats: object = {
    cpu_stats: { cpu_usage: { total_usage: 2_000_000 }, system_cpu_usage: 20_000_000, online_cpus: 2 },
    precpu_stats: { cpu_usage: { total_usage: 1_000_000 }, system_cpu_usage: 10_000_000 },
    memory_stats: { usage: 300 * 2 ** 20, limit: 2 ** 31, stats: { inactive_file: 44 * 2 ** 20 } },
    pids_stats: { current: 7 },
  };

  const find = (ref: string) => containers.get(ref) ?? [...containers.values()].find((c) => c.name === ref);
  const send = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = req.url ?? '';
    requests.push({ method: req.method ?? '', url, body: text ? JSON.parse(text) : undefined });
    if (hangs.some((p) => p.test(url))) return void hung.push(res);
    const failure = failures.find((f) => f.pattern.test(url));
    if (failure) return send(res, failure.status, { message: 'stand-in failure' });

    const u = new URL(url, 'http://docker');
    const m = /^\/v1\.\d+\/containers(?:\/([^/]+))?(?:\/([a-z]+))?$/.exec(u.pathname);
    if (!m) return send(res, 404, { message: `page not found: ${u.pathname}` });
    const [, ref, action] = m;
    if (req.method === 'POST' && ref === 'create') {
      const name = u.searchParams.get('name') ?? '';
      if (find(name)) return send(res, 409, { message: `Conflict. The container name "/${name}" is already in use` });
      const id = randomBytes(32).toString('hex');
      containers.set(id, { id, name, config: JSON.parse(text), state: 'created', exitCode: 0, oomKilled: false, process: null, attached: new Set() });
      return send(res, 201, { Id: id, Warnings: [] });
    }
    if (req.method === 'GET' && ref === 'json') {
      const list = [...containers.values()].map((c) => ({ Id: c.id, Names: [`/${c.name}`], Image: c.config.Image, Labels: c.config.Labels, State: c.state, Status: c.state }));
      return send(res, 200, list);
    }
    const c = ref ? find(ref) : undefined;
    if (!c) return send(res, 404, { message: `No such container: ${ref}` });
    if (req.method === 'POST' && action === 'start') {
      if (c.state === 'running') return send(res, 304);
      startProcess(c);
      return send(res, 204);
    }
    if (req.method === 'POST' && action === 'stop') {
      if (c.state !== 'running') return send(res, 304);
      await stopProcess(c, 0);
      return send(res, 204);
    }
    if (req.method === 'POST' && action === 'restart') {
      await stopProcess(c, 0);
      startProcess(c);
      return send(res, 204);
    }
    if (req.method === 'DELETE' && !action) {
      if (c.state === 'running' && u.searchParams.get('force') !== 'true') return send(res, 409, { message: 'container is running' });
      await stopProcess(c, 137);
      containers.delete(c.id);
      return send(res, 204);
    }
    if (req.method === 'GET' && action === 'json') {
      return send(res, 200, { Id: c.id, Name: `/${c.name}`, State: { Status: c.state, Running: c.state === 'running', OOMKilled: c.oomKilled, ExitCode: c.exitCode }, Config: { Labels: c.config.Labels } });
    }
    if (req.method === 'GET' && action === 'stats') return send(res, 200, stats);
    return send(res, 404, { message: 'not here' });
  });
  // attach: the hijacked connection carries the program's stdio until it ends
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = req.url ?? '';
    requests.push({ method: req.method ?? '', url, body: undefined });
    const u = new URL(url, 'http://docker');
    const m = /^\/v1\.\d+\/containers\/([^/]+)\/attach$/.exec(u.pathname);
    const c = m ? find(m[1]!) : undefined;
    const failure = failures.find((f) => f.pattern.test(url));
    if (!c || failure || req.method !== 'POST') {
      const status = failure?.status ?? 404;
      socket.end(`HTTP/1.1 ${status} Error\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"message":"no attach"}`);
      return;
    }
    socket.write('HTTP/1.1 101 UPGRADED\r\ncontent-type: application/vnd.docker.multiplexed-stream\r\nconnection: Upgrade\r\nupgrade: tcp\r\n\r\n');
    c.attached.add(socket);
    socket.on('close', () => c.attached.delete(socket));
    socket.on('error', () => c.attached.delete(socket));
    if (head.length > 0) c.process?.stdin?.write(head);
    socket.on('data', (chunk: Buffer) => c.process?.stdin?.write(chunk));
    if (c.state !== 'running') socket.end();
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));

  function startProcess(c: Container) {
    const child = run(c.config);
    c.process = child;
    c.state = 'running';
    c.exitCode = 0;
    child.stdout?.on('data', (chunk: Buffer) => c.attached.forEach((s) => s.write(frame(1, chunk))));
    child.stderr?.on('data', (chunk: Buffer) => c.attached.forEach((s) => s.write(frame(2, chunk))));
    child.stdin?.on('error', () => undefined);
    child.once('exit', (code, signal) => {
      if (c.process !== child) return;
      c.process = null;
      // ended on its own (or by exit()): the container has exited, and its attached streams end
      if (c.state === 'running') Object.assign(c, { state: 'exited', exitCode: code ?? (signal ? 137 : 0) });
      for (const s of c.attached) s.end();
    });
  }

  async function stopProcess(c: Container, exitCode: number) {
    const child = c.process;
    c.state = c.state === 'running' ? 'exited' : c.state;
    c.exitCode = exitCode;
    c.process = null;
    for (const s of c.attached) s.end();
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const late = setTimeout(() => child.kill('SIGKILL'), 2_000);
    await gone;
    clearTimeout(late);
  }

  const close = async () => {
    await Promise.all([...containers.values()].map((c) => stopProcess(c, 137)));
    for (const c of containers.values()) for (const s of c.attached) s.destroy();
    for (const res of hung.splice(0)) res.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  };
  cleanUpLater(close);

  return {
    socketPath,
    requests,
    containers,
    failOn: (pattern: RegExp, status = 500) => void failures.push({ pattern, status }),
    hangOn: (pattern: RegExp) => void hangs.push(pattern),
    reset: () => {
      failures.length = 0;
      hangs.length = 0;
      for (const res of hung.splice(0)) res.destroy();
    },
    setStats: (s: object) => void (stats = s),
    /** The container ends on its own, as a crash or the kernel's OOM kill would. */
    exit: (id: string, o: { exitCode: number; oomKilled?: boolean }) => {
      const c = containers.get(id)!;
      void stopProcess(c, o.exitCode);
      Object.assign(c, { state: 'exited', exitCode: o.exitCode, oomKilled: o.oomKilled ?? false });
    },
    close,
  };
}
