import { RuntimeUnavailableError } from '../../../../application/agents/runtime.errors.js';
import type { AgentRuntime, Delivery, RuntimeExit, RuntimeReply, RuntimeSpec, RuntimeStats } from '../../../../application/ports/agent-runtime.port.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import { randomUUID } from 'node:crypto';
import { deliverThrough, requestThrough } from '../agent-host-delivery.js';
import { msg } from '../../../../agent-host/agent-host-protocol.js';
import { ContainerHost } from './container-host.js';
import { attachContainer, DockerEngineClient } from './docker-engine-client.js';
import type { DockerEndpoint } from './docker-endpoint.js';
import { cpuPercentOf, memoryUsageOf, type EngineStats } from './docker-stats.js';

export interface DockerRuntimeOptions {
  /** Where the Engine API is (DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH). */
  endpoint: DockerEndpoint;
  /** The agent-host image (RUNTIME_DOCKER_IMAGE). */
  image: string;
  /**
   * AGENT_DOCKER_NETWORK: the network the containers join, which the operator made internal
   * (`docker network create --internal`) with the service reachable on it. Null (the default):
   * no network at all, and the program's service calls travel on the attach stream.
   */
  network?: string | null;
  /** AGENT_DOCKER_CPUS: the CPU cap of each container, in CPUs (NanoCpus). Default 1. */
  cpus?: number;
  /** The most processes and threads a container may have. Default 512. */
  pidsLimit?: number;
  /** The writable /tmp (a tmpfs) of the otherwise read-only container, in bytes. Default 64 MiB. */
  tmpfsBytes?: number;
  /** Tests only: the program honours its debug messages (AGENT_HOST_TEST_HOOKS=1). */
  testHooks?: boolean;
  /** Create, start and the running check together. Default 15 s. */
  startTimeoutMs?: number;
  /** The daemon's grace between SIGTERM and SIGKILL on stop. Default 5 s. */
  stopTimeoutMs?: number;
  /** The agent-host's idle timeout on its service call (passed on in its environment). Default 120 s. */
  requestTimeoutMs?: number;
  /** Any other Engine API call. Default 10 s. */
  callTimeoutMs?: number;
  /** How often the daemon is asked which containers still run (crash detection). Default 1 s. */
  pollIntervalMs?: number;
  log?: (line: string) => void;
}

interface Instance {
  spec: RuntimeSpec;
  containerId: string | null;
  /** The attach stream the program's messages travel on; re-made when it closed under a running container. */
  host: ContainerHost | null;
  /** An attach in progress, shared by every delivery that needs it (one stream per container, never two). */
  attaching: Promise<ContainerHost> | null;
  ready: Promise<void>;
  live: boolean;
  /** Being stopped or restarted on purpose: the crash poll leaves it alone. */
  quiet: boolean;
  /**
   * The container ended on its own and is being looked at and removed before the exit is reported.
   * Meanwhile the instance still counts as running, so nothing starts it again before its crash
   * is recorded (a heartbeat would otherwise race the removal for the container's name).
   */
  ending: Promise<void> | null;
  startedAt: number;
}

/** The labels every container of ours carries; the poll lists containers by the first. */
export const USER_LABEL = 'agent-host.user';
export const VERSION_LABEL = 'agent-host.version';

const sameSpec = (a: RuntimeSpec, b: RuntimeSpec) =>
  a.runtimeVersion === b.runtimeVersion && a.ramCapBytes === b.ramCapBytes && a.gatewayToken === b.gatewayToken && a.serviceUrl === b.serviceUrl;

/**
 * AGENT_RUNTIME=docker: each user instance is one container of RUNTIME_DOCKER_IMAGE, managed
 * through the Docker Engine API (v1.41) at DOCKER_HOST (a unix socket, or TCP with TLS). The container gets only the
 * AGENT_HOST_* environment (the gateway token included: a container has no IPC channel to hand it
 * over later), the plan's RAM cap as its cgroup memory limit (no swap), every capability dropped,
 * no new privileges, a CPU and pids cap, a read-only root filesystem, no network (or the operator's
 * internal AGENT_DOCKER_NETWORK), no log driver (stdout is the message channel), and runs as uid 65534. Crashes (including the kernel's OOM kill at the cap,
 * reported as `memory_cap`) are found by polling the daemon's container list.
 *
 * Messages travel on the container's attach stream (ContainerHost): the program runs with
 * AGENT_HOST_TRANSPORT=stdio and speaks the forked program's protocol as JSON lines on its stdin
 * and stdout, so `deliver`, streaming, cancel and `resetMemory` work as in the process runtime. A
 * start is ready when the attached program answers a ping; a stream that closed under a running
 * container is attached again at the next use. The stream ending mid-answer is
 * RuntimeUnavailableError (the message waits for the runtime to run again).
 */
export class DockerAgentRuntime implements AgentRuntime {
  readonly kind = 'docker';
  private readonly engine: DockerEngineClient;
  private readonly endpoint: DockerEndpoint;
  private readonly instances = new Map<UserId, Instance>();
  private readonly listeners: ((userId: UserId, exit: RuntimeExit) => void)[] = [];
  private readonly o: Required<Omit<DockerRuntimeOptions, 'endpoint'>>;
  private poller: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(options: DockerRuntimeOptions) {
    this.o = {
      image: options.image,
      network: options.network ?? null,
      cpus: options.cpus ?? 1,
      pidsLimit: options.pidsLimit ?? 512,
      tmpfsBytes: options.tmpfsBytes ?? 64 * 2 ** 20,
      testHooks: options.testHooks ?? false,
      startTimeoutMs: options.startTimeoutMs ?? 15_000,
      stopTimeoutMs: options.stopTimeoutMs ?? 5_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 120_000,
      callTimeoutMs: options.callTimeoutMs ?? 10_000,
      pollIntervalMs: options.pollIntervalMs ?? 1_000,
      log: options.log ?? (() => undefined),
    };
    this.endpoint = options.endpoint;
    this.engine = new DockerEngineClient(options.endpoint, this.o.callTimeoutMs);
  }

  async start(spec: RuntimeSpec): Promise<void> {
    await this.instances.get(spec.userId)?.ending;
    const current = this.instances.get(spec.userId);
    if (current && !current.quiet && sameSpec(current.spec, spec)) return current.ready;
    if (current) await this.stop(spec.userId);
    const instance: Instance = { spec, containerId: null, host: null, attaching: null, ready: Promise.resolve(), live: false, quiet: false, ending: null, startedAt: Date.now() };
    instance.ready = this.launch(instance).then(
      () => {
        instance.live = true;
        instance.startedAt = Date.now();
        this.ensurePolling();
      },
      (err: unknown) => {
        if (this.instances.get(spec.userId) === instance) this.instances.delete(spec.userId);
        throw err;
      },
    );
    this.instances.set(spec.userId, instance);
    return instance.ready;
  }

  async stop(userId: UserId): Promise<void> {
    await this.instances.get(userId)?.ending; // an end on its own is reported first; then there is nothing to stop
    const instance = this.instances.get(userId);
    if (!instance) return;
    instance.quiet = true;
    await instance.ready.catch(() => undefined);
    instance.host?.close();
    try {
      if (instance.containerId) await this.remove(instance.containerId, true);
    } catch (err) {
      instance.quiet = false;
      throw err;
    }
    if (this.instances.get(userId) === instance) this.instances.delete(userId);
  }

  isRunning(userId: UserId): boolean {
    const i = this.instances.get(userId);
    return !!i && i.live && !i.quiet;
  }

  async deliver(userId: UserId, delivery: Delivery, options: { signal?: AbortSignal; onDelta?: (text: string) => void } = {}): Promise<RuntimeReply> {
    options.signal?.throwIfAborted();
    const host = await this.hostOf(userId);
    options.signal?.throwIfAborted();
    return deliverThrough(host, delivery, options);
  }

  /** The program drops what it keeps per agent (rendered memory); the container keeps running. */
  async resetMemory(userId: UserId): Promise<void> {
    await requestThrough(await this.hostOf(userId), { ...msg, type: 'reset-memory', id: randomUUID() });
  }

  /**
   * Test hooks, honoured by the program only with `testHooks` (RUNTIME_TEST_HOOKS=1, refused
   * outside NODE_ENV=test): `allocate` makes it hold `bytes` more memory (past the cgroup's cap the
   * kernel kills it); `state` answers how many agents hold in-process state.
   */
  async debug(userId: UserId, hook: { type: 'allocate'; bytes: number } | { type: 'state' }): Promise<number> {
    const id = randomUUID();
    const answer = await requestThrough(await this.hostOf(userId), hook.type === 'allocate' ? { ...msg, type: 'debug-allocate', id, bytes: hook.bytes } : { ...msg, type: 'debug-state', id });
    return answer.type === 'ack' ? (answer.agents ?? 0) : 0;
  }

  /** The container of the user's instance (tests, diagnostics); undefined when it does not run. */
  containerOf(userId: UserId): string | undefined {
    const i = this.instances.get(userId);
    return i?.live ? (i.containerId ?? undefined) : undefined;
  }

  /** The running instance's attach stream, attached again if it closed while the container still runs. */
  private async hostOf(userId: UserId): Promise<ContainerHost> {
    const i = this.instances.get(userId);
    if (!i || !i.live || i.quiet || !i.containerId) throw new RuntimeUnavailableError('The agent runtime is not running');
    if (i.host?.alive) return i.host;
    i.attaching ??= this.attach(i.spec, i.containerId, this.o.callTimeoutMs)
      .then((host) => (i.host = host))
      .finally(() => (i.attaching = null));
    return i.attaching;
  }

  /**
   * Attaches to the program, hands it the gateway token (`init`, on the stream: never in the
   * container's Env, which `docker inspect` shows to anyone with the socket; sent again at each
   * attach, the same token) and checks it answers (`ping` → `pong`) within `timeoutMs`.
   */
  private async attach(spec: RuntimeSpec, containerId: string, timeoutMs: number): Promise<ContainerHost> {
    // without a network, the program's service calls come back on this stream and are made from here
    const relayTo = this.o.network === null ? { serviceUrl: spec.serviceUrl, gatewayToken: spec.gatewayToken } : null;
    const host = new ContainerHost(await attachContainer(this.endpoint, containerId, timeoutMs), this.o.log, relayTo);
    let timer: NodeJS.Timeout | undefined;
    try {
      host.send({ ...msg, type: 'init', gatewayToken: spec.gatewayToken });
      await Promise.race([
        requestThrough(host, { ...msg, type: 'ping', id: randomUUID() }),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new RuntimeUnavailableError(`The agent-host program did not answer within ${timeoutMs} ms`)), timeoutMs))),
      ]);
      return host;
    } catch (err) {
      host.close();
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  async stats(userId: UserId): Promise<RuntimeStats | null> {
    const i = this.instances.get(userId);
    if (!i || !i.live || !i.containerId) return null;
    const res = await this.engine.call('GET', `/containers/${i.containerId}/stats?stream=false`);
    if (res.status === 404 || res.status === 409) return null;
    if (res.status !== 200) throw new RuntimeUnavailableError(`Docker Engine stats answered ${res.status}`);
    const s = res.body as EngineStats;
    const rssBytes = memoryUsageOf(s);
    return {
      cpuPercent: cpuPercentOf(s),
      rssBytes,
      memoryPercent: Math.round((rssBytes / i.spec.ramCapBytes) * 1000) / 10,
      pids: s.pids_stats?.current ?? 0,
      uptimeMs: Date.now() - i.startedAt,
    };
  }

  onExit(listener: (userId: UserId, exit: RuntimeExit) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    await Promise.allSettled([...this.instances.keys()].map((u) => this.stop(u)));
  }

  /** Create (replacing a leftover of the same name, e.g. from a worker that died), start, check it runs. */
  private async launch(instance: Instance): Promise<void> {
    const { spec } = instance;
    const name = `agent-host-${spec.userId}`;
    const deadline = Date.now() + this.o.startTimeoutMs;
    const left = () => Math.max(1, deadline - Date.now());
    let created = await this.engine.call('POST', `/containers/create?name=${name}`, this.containerSpec(spec), left());
    if (created.status === 409) {
      this.o.log(`docker: replacing a leftover container ${name}`);
      await this.remove(name, false);
      created = await this.engine.call('POST', `/containers/create?name=${name}`, this.containerSpec(spec), left());
    }
    if (created.status !== 201) throw new RuntimeUnavailableError(`Docker Engine create answered ${created.status}${created.status === 404 ? ` (no image ${this.o.image})` : ''}`);
    const id = String((created.body as { Id?: unknown }).Id ?? '');
    if (!/^[A-Za-z0-9]+$/.test(id)) throw new RuntimeUnavailableError('Docker Engine create answered without a container id');
    instance.containerId = id;
    try {
      const started = await this.engine.call('POST', `/containers/${id}/start`, undefined, left());
      if (started.status !== 204 && started.status !== 304) throw new RuntimeUnavailableError(`Docker Engine start answered ${started.status}`);
      const inspected = await this.engine.call('GET', `/containers/${id}/json`, undefined, left());
      const state = (inspected.body as { State?: { Running?: boolean } } | null)?.State;
      if (inspected.status !== 200 || !state?.Running) throw new RuntimeUnavailableError('The agent-host container is not running after start');
      instance.host = await this.attach(spec, id, left());
    } catch (err) {
      instance.host?.close();
      instance.host = null;
      await this.remove(id, false).catch(() => undefined);
      throw err;
    }
  }

  /**
   * POST /containers/create: the image, the scrubbed environment, our labels, and the limits: the
   * plan's RAM (no swap), a CPU cap, a pids limit, no capability, no new privileges, uid 65534, a
   * read-only root filesystem with a small tmpfs /tmp, and no network (or the operator's internal one).
   */
  private containerSpec(spec: RuntimeSpec) {
    return {
      Image: this.o.image,
      Env: [
        'LANG=C.UTF-8',
        'TZ=UTC',
        `AGENT_HOST_USER_ID=${spec.userId}`,
        `AGENT_HOST_SERVICE_URL=${spec.serviceUrl}`,
        `AGENT_HOST_RUNTIME_VERSION=${spec.runtimeVersion}`,
        `AGENT_HOST_REQUEST_TIMEOUT_MS=${this.o.requestTimeoutMs}`,
        'AGENT_HOST_TRANSPORT=stdio',
        ...(this.o.network === null ? ['AGENT_HOST_SERVICE_VIA=supervisor'] : []),
        ...(this.o.testHooks ? ['AGENT_HOST_TEST_HOOKS=1'] : []),
      ],
      // messages travel on the attach stream: stdin kept open across attaches, no TTY (multiplexed output)
      OpenStdin: true,
      StdinOnce: false,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      User: '65534:65534',
      Labels: { [USER_LABEL]: spec.userId, [VERSION_LABEL]: spec.runtimeVersion },
      HostConfig: {
        Memory: spec.ramCapBytes,
        MemorySwap: spec.ramCapBytes,
        NanoCpus: Math.round(this.o.cpus * 1e9),
        PidsLimit: this.o.pidsLimit,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        ReadonlyRootfs: true,
        Tmpfs: { '/tmp': `rw,noexec,nosuid,nodev,size=${this.o.tmpfsBytes}` },
        NetworkMode: this.o.network ?? 'none',
        RestartPolicy: { Name: 'no' },
        Init: true,
        // stdout carries the messages (prompts and answers): no log driver keeps a copy of them
        // (the daemon's default json-file would, on its disk, without bound); stderr reaches our log
        // through the attach stream
        LogConfig: { Type: 'none', Config: {} },
      },
    };
  }

  /** Stop (gracefully when asked) and delete; a container already gone is not an error. */
  private async remove(idOrName: string, graceful: boolean): Promise<void> {
    if (graceful) {
      const t = Math.ceil(this.o.stopTimeoutMs / 1000);
      const stopped = await this.engine.call('POST', `/containers/${idOrName}/stop?t=${t}`, undefined, this.o.stopTimeoutMs + this.o.callTimeoutMs);
      if (![204, 304, 404].includes(stopped.status)) throw new RuntimeUnavailableError(`Docker Engine stop answered ${stopped.status}`);
    }
    let deleted = await this.engine.call('DELETE', `/containers/${idOrName}?force=true`);
    // 409: a removal of it is already in progress (the daemon's own, or ours from another path): wait for it to finish
    for (let tries = 0; deleted.status === 409 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      deleted = await this.engine.call('DELETE', `/containers/${idOrName}?force=true`);
    }
    if (![204, 404].includes(deleted.status)) throw new RuntimeUnavailableError(`Docker Engine delete answered ${deleted.status}`);
  }

  private ensurePolling(): void {
    if (this.poller) return;
    this.poller = setInterval(() => void this.poll(), this.o.pollIntervalMs);
    this.poller.unref();
  }

  /** One look at our containers: a live instance whose container is gone or not running has crashed. */
  private async poll(): Promise<void> {
    const watched = [...this.instances.entries()].filter(([, i]) => i.live && !i.quiet && !i.ending && i.containerId);
    if (this.polling || watched.length === 0) return;
    this.polling = true;
    try {
      const filters = encodeURIComponent(JSON.stringify({ label: [USER_LABEL] }));
      const res = await this.engine.call('GET', `/containers/json?all=true&filters=${filters}`);
      if (res.status !== 200 || !Array.isArray(res.body)) throw new RuntimeUnavailableError(`Docker Engine list answered ${res.status}`);
      const running = new Set((res.body as { Id?: string; State?: string }[]).filter((c) => c.State === 'running').map((c) => c.Id));
      for (const [userId, i] of watched) {
        if (running.has(i.containerId!) || i.quiet || this.instances.get(userId) !== i) continue;
        await (i.ending = this.ended(userId, i));
      }
    } catch (err) {
      // the daemon not answering proves nothing about the containers: look again next tick
      this.o.log(`docker: crash poll failed: ${(err as Error).message}`);
    } finally {
      this.polling = false;
    }
  }

  private async ended(userId: UserId, i: Instance): Promise<void> {
    i.host?.close();
    const inspected = await this.engine.call('GET', `/containers/${i.containerId}/json`).catch(() => null);
    const state = (inspected?.status === 200 ? (inspected.body as { State?: { OOMKilled?: boolean; ExitCode?: number } }).State : undefined) ?? {};
    await this.remove(i.containerId!, false).catch(() => undefined);
    const exit: RuntimeExit = state.OOMKilled
      ? { reason: 'memory_cap', code: state.ExitCode ?? null, signal: 'SIGKILL', detail: `killed at its memory cap of ${i.spec.ramCapBytes} bytes` }
      : { reason: 'crashed', code: state.ExitCode ?? null, signal: null, detail: `container exited${state.ExitCode !== undefined ? ` with code ${state.ExitCode}` : ''}` };
    this.o.log(`docker: instance of ${userId} ended: ${exit.detail}`);
    // gone from this runtime and reported in one step: whoever sees it not running sees its exit too
    if (this.instances.get(userId) === i) this.instances.delete(userId);
    for (const l of this.listeners) l(userId, exit);
  }
}
