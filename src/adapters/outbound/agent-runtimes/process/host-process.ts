import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { RuntimeUnavailableError } from '../../../../application/agents/runtime.errors.js';
import type { RuntimeSpec } from '../../../../application/ports/agent-runtime.port.js';
import { agentHostEntry } from './agent-host-entry.js';
import { msg, PROTOCOL_VERSION, readMessage, type HostMessage, type SupervisorMessage } from '../../../../agent-host/agent-host-protocol.js';
import { childEnv } from './agent-host-env.js';
import { AwaitedAnswers, requestThrough, type HostChannel, type PendingAnswer } from '../agent-host-delivery.js';
import { captureLines, type ChildOutput } from '../../system/child-output.js';
import type { HostCalls } from '../../../../application/ports/host-calls.port.js';
import { HostCallRelay } from '../host-call-relay.js';

export interface HostProcessOptions {
  startTimeoutMs: number;
  stopTimeoutMs: number;
  requestTimeoutMs: number;
  /** Share of the RAM cap given to V8's old space (`--max-old-space-size`). */
  heapFraction: number;
  /** Run the program as this OS user (only possible when we are root). */
  runAs: { uid: number; gid: number } | null;
  testHooks: boolean;
  /**
   * The service's door for the program's calls, in this process: given, the program's calls
   * travel over the IPC channel (AGENT_HOST_SERVICE_VIA=supervisor) instead of HTTP to `serviceUrl`.
   */
  serviceCalls: (() => HostCalls) | null;
  log: (line: string) => void;
}

/**
 * The young generation's bound, per semi-space. A host relays a few messages a second and keeps
 * about 4 MB alive; left to V8, its nursery grows as the survivors it copies add up (to 16 MB a
 * semi-space), so a node's hosts kept growing long after their start (a soak saw them rise until
 * minute 16). At 1 MB it stays at its starting size, and a scavenge of a nursery this small costs a
 * relay little (docs/decisions/0472; with --optimize-for-size: 0476).
 */
const HOST_SEMI_SPACE_MB = 1;

/**
 * V8 sized for memory, not speed: after each full collection the old generation may grow by 2 MB
 * before the next, not 8. A host keeps about 4 MB alive, so its heap pages settled at about 12 MB
 * only after nine minutes of a few messages a second (the soak of 2026-11-29: anonymous memory 9 →
 * 18 MB per host from minute 2 to 9, then flat); sized for memory they settle lower and sooner.
 */
const HOST_V8_FLAGS = ['--optimize-for-size'];

/** How the process ended, and whether anyone asked for it. */
export interface HostEnd {
  code: number | null;
  signal: string | null;
  /** Set when we killed it on purpose: `stop`, or the watchdog's reason. */
  cause: { kind: 'stop' } | { kind: 'memory_cap'; detail: string } | null;
}

/**
 * One running agent-host program: fork, readiness handshake, request/answer correlation over
 * IPC, and its end. Knows nothing of users or of other hosts.
 */
export class HostProcess implements HostChannel {
  readonly startedAt = Date.now();
  readonly ended: Promise<HostEnd>;
  private readonly child: ChildProcess;
  private readonly answers = new AwaitedAnswers();
  private readonly output: ChildOutput;
  private readonly relay: HostCallRelay | null;
  private cause: HostEnd['cause'] = null;
  private end: HostEnd | null = null;
  private answered = false;

  constructor(
    readonly spec: RuntimeSpec,
    private readonly o: HostProcessOptions,
  ) {
    const entry = agentHostEntry();
    const heapMb = Math.max(32, Math.floor((spec.ramCapBytes / 2 ** 20) * o.heapFraction));
    this.child = fork(entry.file, [], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${heapMb}`, `--max-semi-space-size=${HOST_SEMI_SPACE_MB}`, ...HOST_V8_FLAGS],
      env: childEnv(spec, { ...o, relayed: o.serviceCalls !== null }),
      cwd: '/',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
      // its own process group: a kill reaches what the program may have started, and a
      // terminal's Ctrl-C reaches only us (we stop it ourselves)
      detached: true,
      ...(o.runAs ?? {}),
    });
    this.output = captureLines(this.child, `agent-host ${spec.userId}`, o.log, 20);
    this.ended = new Promise((resolve) => {
      const finish = (code: number | null, signal: string | null) => {
        if (this.end) return;
        this.end = { code, signal, cause: this.cause };
        this.answers.endAll();
        this.relay?.endAll(); // its calls in progress are aborted: their reservations released
        resolve(this.end);
      };
      this.child.once('exit', finish);
      // fork failed to spawn at all (EACCES, ENOMEM): no 'exit' follows
      this.child.once('error', (err) => {
        o.log(`agent-host ${spec.userId}: ${err.message}`);
        if (this.child.pid === undefined) finish(null, null);
      });
    });
    this.relay = o.serviceCalls
      ? new HostCallRelay({ calls: o.serviceCalls, gatewayToken: spec.gatewayToken, send: (m) => this.send(m), reply: (id, r) => this.answers.replyWith(id, r), log: (line) => o.log(`agent-host ${spec.userId}: ${line}`) })
      : null;
    const relay = this.relay;
    this.child.on('message', (raw) => {
      if (relay && isServiceMessage(raw)) relay.handle(raw);
      else this.answers.route(raw);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.end === null;
  }

  /** True once someone asked it to end (stop, watchdog) or it ended. */
  get stopping(): boolean {
    return this.cause !== null || this.end !== null;
  }

  /** True once it answered the readiness handshake: an end before that is a failed start, not a crash. */
  get wasReady(): boolean {
    return this.answered;
  }

  /** hello → init (the token) → ping → pong, within the start timeout; else killed and thrown. */
  async ready(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let onHello: ((raw: unknown) => void) | undefined;
    const handshake = new Promise<void>((resolve, reject) => {
      onHello = (raw) => {
        const m = readMessage<HostMessage>(raw);
        if (m?.type !== 'hello') return;
        if (m.protocol !== PROTOCOL_VERSION) return reject(new Error(`protocol ${m.protocol}, expected ${PROTOCOL_VERSION}`));
        this.send({ ...msg, type: 'init', gatewayToken: this.spec.gatewayToken });
        this.request({ ...msg, type: 'ping', id: randomUUID() }).then(() => resolve(), reject);
      };
      this.child.on('message', onHello);
    });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no readiness answer within ${this.o.startTimeoutMs} ms`)), this.o.startTimeoutMs);
    });
    const died = this.ended.then((e) => {
      throw new Error(`exited during start (${e.code ?? e.signal})`);
    });
    try {
      await Promise.race([handshake, timeout, died]);
      this.answered = true;
    } catch (err) {
      await this.stop();
      const tail = this.output.tail();
      throw new RuntimeUnavailableError(`The agent runtime did not start: ${(err as Error).message}${tail ? `\n${tail}` : ''}`);
    } finally {
      clearTimeout(timer);
      if (onHello) this.child.off('message', onHello);
    }
  }

  /** Sends one message; false when the channel is already closed. */
  send(m: SupervisorMessage): boolean {
    if (!this.alive || !this.child.connected) return false;
    this.child.send(m, (err) => {
      // the channel closed under the write: the 'exit' handling settles whoever waits
      if (err) this.o.log(`agent-host ${this.spec.userId}: IPC send failed: ${err.message}`);
    });
    return true;
  }

  /**
   * Sends `m` and routes the answers to `m.id` to `waiting` until `forget(m.id)` or the end of
   * the process (then `onEnd`). False, and nothing registered, when the channel is closed.
   */
  open(m: SupervisorMessage & { id: string }, waiting: PendingAnswer): boolean {
    return this.answers.open(m, waiting, (x) => this.send(x));
  }

  forget(id: string): void {
    this.answers.forget(id);
  }

  /** One message, one answer (`pong`, `ack`); rejects with RuntimeUnavailableError if the process ends first. */
  request(m: SupervisorMessage & { id: string }): Promise<HostMessage> {
    return requestThrough(this, m);
  }

  /** Ends it on purpose for `cause`: SIGTERM to its group, SIGKILL after the stop timeout. */
  async stop(cause: NonNullable<HostEnd['cause']> = { kind: 'stop' }): Promise<HostEnd> {
    this.cause ??= cause;
    if (this.end) return this.end;
    if (cause.kind === 'memory_cap') {
      this.signal('SIGKILL'); // over its cap: no grace period to grow further
      return this.ended;
    }
    this.signal('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      this.ended.then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), this.o.stopTimeoutMs))),
    ]);
    clearTimeout(timer);
    if (late) this.signal('SIGKILL');
    return this.ended;
  }

  private signal(sig: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined || this.end) return;
    try {
      process.kill(-pid, sig); // the whole group
    } catch {
      this.child.kill(sig);
    }
  }
}

/** The program's own service calls (`service-call`, `service-abort`): for the relay, not for a waiting request. */
function isServiceMessage(raw: unknown): raw is HostMessage {
  const m = readMessage<HostMessage>(raw);
  return m?.type === 'service-call' || m?.type === 'service-abort';
}
