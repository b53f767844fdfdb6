import { randomBytes } from 'node:crypto';
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
}

/**
 * A stand-in Docker daemon: the Engine API v1.43 over a unix socket in a temp folder, answering
 * the documented JSON shapes for create, start, stop, restart, delete, inspect, list and
 * one-shot stats. It records every request, keeps containers in memory, and can be told to fail
 * (`failOn`) or never answer (`hangOn`) a path, or to end a container on its own (`exit`).
 */
export async function startDockerStandIn() {
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
    const m = /^\/v1\.43\/containers(?:\/([^/]+))?(?:\/([a-z]+))?$/.exec(u.pathname);
    if (!m) return send(res, 404, { message: `page not found: ${u.pathname}` });
    const [, ref, action] = m;
    if (req.method === 'POST' && ref === 'create') {
      const name = u.searchParams.get('name') ?? '';
      if (find(name)) return send(res, 409, { message: `Conflict. The container name "/${name}" is already in use` });
      const id = randomBytes(32).toString('hex');
      containers.set(id, { id, name, config: JSON.parse(text), state: 'created', exitCode: 0, oomKilled: false });
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
      c.state = 'running';
      return send(res, 204);
    }
    if (req.method === 'POST' && action === 'stop') {
      if (c.state !== 'running') return send(res, 304);
      c.state = 'exited';
      return send(res, 204);
    }
    if (req.method === 'POST' && action === 'restart') {
      c.state = 'running';
      return send(res, 204);
    }
    if (req.method === 'DELETE' && !action) {
      if (c.state === 'running' && u.searchParams.get('force') !== 'true') return send(res, 409, { message: 'container is running' });
      containers.delete(c.id);
      return send(res, 204);
    }
    if (req.method === 'GET' && action === 'json') {
      return send(res, 200, { Id: c.id, Name: `/${c.name}`, State: { Status: c.state, Running: c.state === 'running', OOMKilled: c.oomKilled, ExitCode: c.exitCode }, Config: { Labels: c.config.Labels } });
    }
    if (req.method === 'GET' && action === 'stats') return send(res, 200, stats);
    return send(res, 404, { message: 'not here' });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));

  const close = async () => {
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
      Object.assign(c, { state: 'exited', exitCode: o.exitCode, oomKilled: o.oomKilled ?? false });
    },
    close,
  };
}
