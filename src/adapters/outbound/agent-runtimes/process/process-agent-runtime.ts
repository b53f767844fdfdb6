import { randomUUID } from 'node:crypto';
import { RuntimeUnavailableError } from '../../../../application/agents/runtime.errors.js';
import type {
  AgentRuntime,
  Delivery,
  RuntimeExit,
  RuntimeReply,
  RuntimeSpec,
  RuntimeStats,
} from '../../../../application/ports/agent-runtime.port.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { HostCalls } from '../../../../application/ports/host-calls.port.js';
import { msg } from '../../../../agent-host/agent-host-protocol.js';
import { deliverThrough } from '../agent-host-delivery.js';
import { HostProcess, type HostEnd, type HostProcessOptions } from './host-process.js';
import { MemoryWatchdog } from './memory-watchdog.js';
import { ProcSnapshot, ProcTrees } from './proc-stats.js';
import { HostUids, type HostIdentity, type UidRange } from './host-uids.js';

export interface ProcessRuntimeOptions {
  /** Fork to readiness answer. Default 15 s. */
  startTimeoutMs?: number;
  /** SIGTERM to SIGKILL on stop. Default 5 s. */
  stopTimeoutMs?: number;
  /** The program's idle timeout on its service call (no answer, no stream progress). Default 120 s. */
  requestTimeoutMs?: number;
  /** How often the resident-memory watchdog samples. Default 1 s. */
  watchdogIntervalMs?: number;
  /** Share of the RAM cap given to the V8 heap (the rest: code, buffers, young generation). Default 0.5. */
  heapFraction?: number;
  /** Run the programs as this OS user; only when this process is root (e.g. `nobody`). */
  runAs?: { uid: number; gid: number } | null;
  /** Run each instance's program under its own uid from this range (HostUids); only when root; wins over `runAs`. */
  uidRange?: UidRange | null;
  /** Enables the program's debug messages (tests only). */
  testHooks?: boolean;
  /**
   * The service's door for the programs' calls, in this process (resolved at the first call):
   * given, a program's chat and tool calls travel over its IPC channel and are answered here,
   * without an HTTP request; null (the default): the programs call `serviceUrl` over HTTP.
   */
  serviceCalls?: (() => HostCalls) | null;
  /** Receives the programs' output and supervision notes, one line at a time. */
  log?: (line: string) => void;
}

const MB = 2 ** 20;
const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * AGENT_RUNTIME=process: each user instance is one forked agent-host program (see
 * agent-host-program.ts), supervised here: its own uid when we are root (HostUids), scrubbed
 * environment, heap limit and resident-memory watchdog from the plan's cap, crash reports within the `exit` event, stats from /proc.
 */
export class ProcessAgentRuntime implements AgentRuntime {
  readonly kind = 'process';
  private readonly hosts = new Map<UserId, { host: HostProcess; ready: Promise<void>; cpu: { at: number; seconds: number } }>();
  private readonly listeners: ((userId: UserId, exit: RuntimeExit) => void)[] = [];
  private readonly hostOptions: HostProcessOptions;
  private readonly watchdog: MemoryWatchdog;
  /** The programs' process trees, read from their roots (null without /proc's children files: a full scan instead). */
  private readonly trees = ProcTrees.supported() ? new ProcTrees() : null;
  /** Per-instance uids, when root and a range is configured; else every program runs as `hostOptions.runAs`. */
  private readonly uids: HostUids | null;

  constructor(options: ProcessRuntimeOptions = {}) {
    const isRoot = process.getuid?.() === 0;
    this.uids = isRoot && options.uidRange ? new HostUids(options.uidRange) : null;
    this.hostOptions = {
      startTimeoutMs: options.startTimeoutMs ?? 15_000,
      stopTimeoutMs: options.stopTimeoutMs ?? 5_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 120_000,
      heapFraction: options.heapFraction ?? 0.5,
      // only root can switch users; anyone else runs the programs as themselves
      runAs: isRoot ? (options.runAs ?? null) : null,
      testHooks: options.testHooks ?? false,
      serviceCalls: options.serviceCalls ?? null,
      log: options.log ?? (() => undefined),
    };
    this.watchdog = new MemoryWatchdog(options.watchdogIntervalMs ?? 1_000, () =>
      [...this.hosts.values()].flatMap(({ host }) =>
        host.pid !== undefined && !host.stopping ? [{ pid: host.pid, capBytes: host.spec.ramCapBytes, over: (rss: number) => this.overCap(host, rss) }] : [],
      ),
      this.trees,
    );
  }

  async start(spec: RuntimeSpec): Promise<void> {
    let runAs: HostIdentity | null = null;
    for (;;) {
      const current = this.hosts.get(spec.userId);
      if (!current) {
        runAs = await this.runAsFor(spec.userId);
        if (!this.hosts.has(spec.userId)) break;
        continue; // another start got there while the uid was chosen: join or replace it as above
      }
      if (current.host.stopping) {
        // being stopped (or killed): start afresh once it is gone
        await current.host.ended;
        if (this.hosts.get(spec.userId) === current) this.hosts.delete(spec.userId);
        continue;
      }
      if (sameSpec(current.host.spec, spec)) return current.ready;
      // a different spec (new version, cap or token): the instance is restarted on it
      await this.stop(spec.userId);
    }

    const host = new HostProcess(spec, { ...this.hostOptions, runAs });
    const ready = host.ready();
    const entry = { host, ready, cpu: { at: host.startedAt, seconds: 0 } };
    this.hosts.set(spec.userId, entry);
    void host.ended.then((end) => this.ended(spec.userId, host, end));
    ready.catch(() => undefined); // observed by the caller below; a joiner sees it through `current.ready`
    await ready;
    this.watchdog.wake();
  }

  async stop(userId: UserId): Promise<void> {
    const entry = this.hosts.get(userId);
    if (!entry) return;
    await entry.host.stop();
  }

  isRunning(userId: UserId): boolean {
    const entry = this.hosts.get(userId);
    return entry !== undefined && entry.host.alive && entry.host.wasReady;
  }

  async deliver(userId: UserId, delivery: Delivery, options: { signal?: AbortSignal; onDelta?: (text: string) => void } = {}): Promise<RuntimeReply> {
    options.signal?.throwIfAborted();
    const host = await this.readyHost(userId);
    options.signal?.throwIfAborted();
    return deliverThrough(host, delivery, options);
  }

  async resetMemory(userId: UserId): Promise<void> {
    const host = await this.readyHost(userId);
    await host.request({ ...msg, type: 'reset-memory', id: randomUUID() });
  }

  async stats(userId: UserId): Promise<RuntimeStats | null> {
    const entry = this.hosts.get(userId);
    if (!entry || !entry.host.alive || entry.host.pid === undefined) return null;
    const tree = this.trees ? this.trees.tree(entry.host.pid) : (await ProcSnapshot.take()).tree(entry.host.pid);
    if (!tree) return null;
    const now = Date.now();
    const elapsed = (now - entry.cpu.at) / 1000;
    const cpuPercent = elapsed > 0 ? Math.max(0, ((tree.cpuSeconds - entry.cpu.seconds) / elapsed) * 100) : 0;
    entry.cpu = { at: now, seconds: tree.cpuSeconds };
    return {
      cpuPercent: round1(cpuPercent),
      rssBytes: tree.rssBytes,
      memoryPercent: round1((tree.rssBytes / entry.host.spec.ramCapBytes) * 100),
      pids: tree.pids,
      uptimeMs: now - entry.host.startedAt,
    };
  }

  onExit(listener: (userId: UserId, exit: RuntimeExit) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.watchdog.stop();
    await Promise.all([...this.hosts.keys()].map((userId) => this.stop(userId)));
  }

  /**
   * Test hooks, honoured by the program only with `testHooks`: `allocate` makes it hold `bytes`
   * more memory; `state` answers how many agents hold in-process state; `block` blocks its event loop.
   */
  async debug(userId: UserId, hook: { type: 'allocate'; bytes: number } | { type: 'state' } | { type: 'block'; ms: number }): Promise<number> {
    const host = await this.readyHost(userId);
    const id = randomUUID();
    const answer = await host.request(
      hook.type === 'allocate'
        ? { ...msg, type: 'debug-allocate', id, bytes: hook.bytes }
        : hook.type === 'block'
          ? { ...msg, type: 'debug-block', id, ms: hook.ms }
          : { ...msg, type: 'debug-state', id },
    );
    return answer.type === 'ack' ? (answer.agents ?? 0) : 0;
  }

  /** The pid of the user's program (tests, diagnostics); undefined when it does not run. */
  pidOf(userId: UserId): number | undefined {
    const entry = this.hosts.get(userId);
    return entry?.host.alive ? entry.host.pid : undefined;
  }

  /** Who the instance's program runs as: its own uid, the one configured user, or ourselves (null). */
  private async runAsFor(userId: UserId): Promise<HostIdentity | null> {
    if (!this.uids) return this.hostOptions.runAs;
    try {
      return await this.uids.take(userId);
    } catch (err) {
      throw new RuntimeUnavailableError(`The agent runtime cannot start: ${(err as Error).message}`);
    }
  }

  private async readyHost(userId: UserId): Promise<HostProcess> {
    const entry = this.hosts.get(userId);
    if (!entry) throw new RuntimeUnavailableError('The agent runtime is not running');
    await entry.ready; // a start in progress is joined; a failed one throws its RuntimeUnavailableError
    if (!entry.host.alive) throw new RuntimeUnavailableError('The agent runtime is not running');
    return entry.host;
  }

  private overCap(host: HostProcess, rssBytes: number): void {
    const detail = `resident memory ${Math.round(rssBytes / MB)} MB above the plan cap ${Math.round(host.spec.ramCapBytes / MB)} MB`;
    this.hostOptions.log(`agent-host ${host.spec.userId}: ${detail}; killing it`);
    void host.stop({ kind: 'memory_cap', detail });
  }

  /** The process is gone: forget it, and report it unless someone asked for it (`stop`). */
  private ended(userId: UserId, host: HostProcess, end: HostEnd): void {
    if (this.hosts.get(userId)?.host === host) this.hosts.delete(userId);
    if (!this.hosts.has(userId)) this.uids?.release(userId);
    // asked for, or a start that failed (its caller got the error): nothing to report
    if (end.cause?.kind === 'stop' || !host.wasReady) return;
    const exit: RuntimeExit =
      end.cause?.kind === 'memory_cap'
        ? { reason: 'memory_cap', code: end.code, signal: end.signal, detail: end.cause.detail }
        : { reason: 'crashed', code: end.code, signal: end.signal, detail: end.signal ? `killed by ${end.signal}` : `exited with code ${end.code}` };
    this.hostOptions.log(`agent-host ${userId}: ${exit.detail}`);
    for (const listener of this.listeners) {
      try {
        listener(userId, exit);
      } catch (err) {
        this.hostOptions.log(`onExit listener failed: ${(err as Error).message}`);
      }
    }
  }
}

function sameSpec(a: RuntimeSpec, b: RuntimeSpec): boolean {
  return a.runtimeVersion === b.runtimeVersion && a.ramCapBytes === b.ramCapBytes && a.gatewayToken === b.gatewayToken && a.serviceUrl === b.serviceUrl;
}
