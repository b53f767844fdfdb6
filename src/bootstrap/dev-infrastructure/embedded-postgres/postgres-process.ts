import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import type { PostgresOsUser } from './postgres-os-user.js';
import { childEnv, STOP_TIMEOUT_MS } from './embedded-shared.js';
import { captureLines } from '../../../adapters/outbound/system/child-output.js';

/** Running the postgres server process: start, readiness, stop, and its output. */
export class PortInUseError extends Error {}

interface RunningServer {
  pid: number;
  stop(): Promise<void>;
}

export async function startServer(o: {
  bin: string;
  clusterDir: string;
  port: number;
  user: PostgresOsUser | null;
  settings: Record<string, string | number | boolean>;
  log: (m: string) => void;
  timeoutMs: number;
  /** Listen on a Unix socket in this (private) directory only, no TCP: for maintenance no one else may reach. */
  socketDir?: string;
  /** Told once the server process runs (before it is ready). */
  spawned?: () => void;
}): Promise<RunningServer> {
  const settings: Record<string, string | number | boolean> = {
    ...o.settings,
    listen_addresses: o.socketDir === undefined ? '127.0.0.1' : '',
    unix_socket_directories: o.socketDir ?? '',
    lc_messages: 'C',
  };
  const args = ['-D', o.clusterDir, '-p', String(o.port)];
  for (const [k, v] of Object.entries(settings)) {
    if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(k)) throw new Error(`Embedded PostgreSQL: invalid setting name ${JSON.stringify(k)}`);
    args.push('-c', `${k}=${typeof v === 'boolean' ? (v ? 'on' : 'off') : String(v)}`);
  }
  const child = spawn(o.bin, args, {
    cwd: o.clusterDir,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    ...(o.user ? { uid: o.user.uid, gid: o.user.gid } : {}),
  });
  const output = captureLines(child, 'postgres', o.log);
  o.spawned?.();
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const closed = new Promise<void>((res) => child.once('close', () => res()));
  let stopping = false;
  child.once('exit', (code, sig) => {
    if (!stopping) o.log(`the server exited unexpectedly (${code ?? sig})`);
  });

  try {
    await waitReady(child, o.clusterDir, o.timeoutMs);
  } catch (err) {
    stopping = true;
    await signalAndWait(child, exited);
    await Promise.race([closed, new Promise((r) => setTimeout(r, 1_000))]); // the last lines of output
    const tail = output.tail();
    if (/could not create any TCP\/IP sockets|Address already in use/.test(tail)) {
      throw new PortInUseError(`Embedded PostgreSQL: port ${o.port} on 127.0.0.1 is in use:\n${tail}`);
    }
    throw new Error(`Embedded PostgreSQL: the server did not start (${(err as Error).message}):\n${tail}`);
  }

  // Running from here on: do not hold the event loop open for it; stop() takes it back.
  child.unref();
  for (const s of [child.stdout, child.stderr]) (s as Socket | null)?.unref();
  const pid = child.pid ?? -1;
  return {
    pid,
    async stop() {
      stopping = true;
      child.ref();
      await signalAndWait(child, exited);
    },
  };
}

/** Ready when postmaster.pid, written by this child, says "ready" (its 8th line). */
async function waitReady(child: ChildProcess, clusterDir: string, timeoutMs: number): Promise<void> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  const deadline = Date.now() + timeoutMs;
  let exitedEarly: string | null = null;
  const onExit = (code: number | null, sig: NodeJS.Signals | null) => (exitedEarly = `exit ${code ?? sig}`);
  const onError = (err: Error) => (exitedEarly = err.message);
  child.once('exit', onExit);
  child.once('error', onError);
  try {
    for (;;) {
      if (exitedEarly !== null) throw new Error(exitedEarly);
      const lines = (await readFile(pidFile, 'utf8').catch(() => '')).split('\n');
      if (Number(lines[0]) === child.pid && lines[7]?.trim() === 'ready') return;
      if (Date.now() > deadline) throw new Error(`not ready after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.off('exit', onExit);
    child.off('error', onError);
  }
}

/** SIGINT (fast shutdown), then SIGQUIT (immediate), then SIGKILL. */
async function signalAndWait(child: ChildProcess, exited: Promise<void>): Promise<void> {
  const steps: [NodeJS.Signals, number][] = [
    ['SIGINT', STOP_TIMEOUT_MS],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ];
  for (const [sig, wait] of steps) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    child.kill(sig);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), wait))),
    ]);
    clearTimeout(timer);
    if (!timedOut) return;
  }
}

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port ? res(port) : rej(new Error('no free port'))));
    });
  });
}

export function once(fn: () => Promise<void>): () => Promise<void> {
  let p: Promise<void> | undefined;
  return () => (p ??= fn());
}

