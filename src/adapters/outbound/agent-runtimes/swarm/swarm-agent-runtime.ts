import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import { RuntimeUnavailableError } from '../../../../application/agents/runtime.errors.js';
import type { AgentRuntime, Delivery, RuntimeExit, RuntimeReply, RuntimeSpec, RuntimeStats } from '../../../../application/ports/agent-runtime.port.js';
import type { HostCalls } from '../../../../application/ports/host-calls.port.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import { msg, type HostStats } from '../../../../agent-host/agent-host-protocol.js';
import { CONNECT_PATH } from '../../../../agent-host/agent-host-transport.js';
import { deliverThrough, requestThrough } from '../agent-host-delivery.js';
import { DockerEngineClient } from '../docker/docker-engine-client.js';
import type { DockerEndpoint } from '../docker/docker-endpoint.js';
import { HttpHostCalls } from '../http-host-calls.js';
import { ConnectListener, type Admission, type ConnectRequest } from './connect-listener.js';
import { ConnectedHost, INIT_WITHOUT_TOKEN } from './connected-host.js';

export interface SwarmRuntimeOptions {
  /** The swarm manager's Engine API (DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH), as for the docker runtime. */
  endpoint: DockerEndpoint;
  /** The agent-host image (RUNTIME_DOCKER_IMAGE), present on every node (a registry, or loaded on each). */
  image: string;
  /** Where this worker listens for the programs dialling in (AGENT_SWARM_CONNECT_LISTEN), `host:port`. */
  listen: { host: string; port: number };
  /**
   * The base URL the tasks dial (AGENT_SWARM_CONNECT_URL): this worker's listener as the swarm's
   * nodes reach it. Null: `http://<listen host>:<bound port>` (tests).
   */
  connectUrl?: string | null;
  /** The network the tasks join (AGENT_SWARM_NETWORK: an overlay, or `host`); null: the engine's default. */
  network?: string | null;
  /** Placement constraints (AGENT_SWARM_CONSTRAINTS), e.g. `node.labels.agents==yes`. */
  constraints?: string[];
  /** The CPU limit of each task, in CPUs (AGENT_DOCKER_CPUS). Default 1. */
  cpus?: number;
  /** The CPU each task reserves, in CPUs (AGENT_SWARM_CPU_RESERVATION). Default 0.1. */
  cpuReservation?: number;
  /** The most processes and threads a task may have. Default 512. */
  pidsLimit?: number;
  /** The writable /tmp of the otherwise read-only container, bytes. Default 64 MiB. */
  tmpfsBytes?: number;
  /** Swarm's delay before it starts a task again after one ended. Default 1 s. */
  restartDelayMs?: number;
  /** The program's service calls: the door in this process, or null for HTTP to each instance's serviceUrl. */
  serviceCalls?: (() => HostCalls) | null;
  testHooks?: boolean;
  /** From the service's creation to the program's first answered ping. Default 60 s (a node may pull or start slowly). */
  startTimeoutMs?: number;
  /** The grace Swarm gives a task between SIGTERM and SIGKILL, and the wait for it to be gone on stop. Default 5 s. */
  stopTimeoutMs?: number;
  /** The agent-host's idle timeout on its service call. Default 120 s. */
  requestTimeoutMs?: number;
  /** Any other Engine API call. Default 10 s. */
  callTimeoutMs?: number;
  /** How often the manager is asked about the tasks (fencing, crashes). Default 1 s. */
  pollIntervalMs?: number;
  /** How long a delivery waits for the program to be connected (a task being moved to another node). Default 60 s. */
  failoverWaitMs?: number;
  /** How often a connected program is pinged; three silent intervals end its connection. Default 3 s. */
  pingIntervalMs?: number;
  log?: (line: string) => void;
}

interface Instance {
  spec: RuntimeSpec;
  name: string;
  serviceId: string | null;
  /** A new one at every start: names the connect secret; the secret proves a task was started by this generation. */
  generation: string;
  secret: string;
  /** The connected program, of the current epoch (its task); null between connections. */
  host: ConnectedHost | null;
  /** Deliveries waiting for a connection. */
  waiting: (() => void)[];
  /** Tasks that connected in this generation: a crash is one of these ending on its own. */
  connected: Set<string>;
  /** Tasks seen running while Swarm no longer wanted them (moved off a lost node): their end is not a crash. */
  fenced: Set<string>;
  ready: Promise<void>;
  live: boolean;
  quiet: boolean;
  ending: Promise<void> | null;
  startedAt: number;
  lastCpu: { ns: number; at: number } | null;
}

/** Labels on every service and secret of ours; the poll lists tasks by the first. */
export const USER_LABEL = 'agent-host.user';
export const VERSION_LABEL = 'agent-host.version';
export const GENERATION_LABEL = 'agent-host.generation';
/** Where the connect secret is mounted in the task. */
export const SECRET_FILE = 'agent-host-connect';

interface SwarmTask {
  ID: string;
  ServiceID: string;
  NodeID?: string;
  DesiredState: string;
  Status?: { State?: string; Err?: string; ContainerStatus?: { ExitCode?: number } };
}

const ENDED = new Set(['complete', 'failed', 'rejected', 'shutdown', 'orphaned', 'remove']);
const sameSpec = (a: RuntimeSpec, b: RuntimeSpec) =>
  a.runtimeVersion === b.runtimeVersion && a.ramCapBytes === b.ramCapBytes && a.gatewayToken === b.gatewayToken && a.serviceUrl === b.serviceUrl;
const equalSecret = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * AGENT_RUNTIME=swarm: each user instance is one Docker Swarm service of one replica, made through
 * the swarm manager's Engine API (v1.41, at DOCKER_HOST: a socket or TCP with TLS); Swarm chooses
 * the node, and moves the task when its node is lost. The task has the plan's RAM as its memory
 * limit and reservation, a CPU limit and reservation, a pids limit, no capability, a read-only
 * root with a small /tmp, uid 65534, our labels, the operator's placement constraints and network,
 * and a restart policy (any end, after `restartDelayMs`). Stop scales the service to 0, start to 1
 * (a new generation: the service is updated), `remove` deletes it.
 *
 * The program dials in (ConnectListener, AGENT_HOST_TRANSPORT=connect): an attach stream does not
 * cross nodes. It presents its task id (`{{.Task.ID}}` in its environment: the epoch) and the
 * generation's connect secret (a Swarm secret, mounted as a file). A connection is taken only
 * when the secret is the current generation's and the manager lists the task as the one it wants
 * running; it then replaces any older connection. The poll asks the manager about every task each
 * `pollIntervalMs`: a connected task that Swarm no longer wants (its node was lost and the task
 * runs elsewhere) has its connection closed, and its dial-back is refused (403). Deliveries,
 * replies and the program's service calls (relayed with the gateway token the program never
 * holds) travel only on the current epoch's connection: an old copy on a cut-off node can neither
 * answer a message nor spend the owner's units.
 *
 * A connected task that ends on its own is a crash (exit 137, SIGKILL, is `memory_cap`: Swarm's
 * task status has no OOM flag and the service sends no SIGKILL of its own); the service is then
 * scaled to 0 and the exit reported, as the docker runtime reports a container's end.
 */
export class SwarmAgentRuntime implements AgentRuntime {
  readonly kind = 'swarm';
  private readonly engine: DockerEngineClient;
  private readonly instances = new Map<UserId, Instance>();
  private readonly listeners: ((userId: UserId, exit: RuntimeExit) => void)[] = [];
  private readonly o: Required<Omit<SwarmRuntimeOptions, 'endpoint' | 'connectUrl' | 'serviceCalls' | 'listen'>>;
  private readonly listener: ConnectListener;
  private listening: Promise<AddressInfo> | null = null;
  private poller: NodeJS.Timeout | null = null;
  private pinger: NodeJS.Timeout | null = null;
  private polling = false;
  private readonly httpCalls = new Map<string, HttpHostCalls>();
  /** Connections refused as stale (403), for tests and the log. */
  refusedStale = 0;
  /** Set by `close`: no start, no connection taken. */
  private closing = false;

  constructor(private readonly options: SwarmRuntimeOptions) {
    this.o = {
      image: options.image,
      network: options.network ?? null,
      constraints: options.constraints ?? [],
      cpus: options.cpus ?? 1,
      cpuReservation: options.cpuReservation ?? 0.1,
      pidsLimit: options.pidsLimit ?? 512,
      tmpfsBytes: options.tmpfsBytes ?? 64 * 2 ** 20,
      restartDelayMs: options.restartDelayMs ?? 1_000,
      testHooks: options.testHooks ?? false,
      startTimeoutMs: options.startTimeoutMs ?? 60_000,
      stopTimeoutMs: options.stopTimeoutMs ?? 5_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 120_000,
      callTimeoutMs: options.callTimeoutMs ?? 10_000,
      pollIntervalMs: options.pollIntervalMs ?? 1_000,
      failoverWaitMs: options.failoverWaitMs ?? 60_000,
      pingIntervalMs: options.pingIntervalMs ?? 3_000,
      log: options.log ?? (() => undefined),
    };
    this.engine = new DockerEngineClient(options.endpoint, this.o.callTimeoutMs);
    this.listener = new ConnectListener((r) => this.admit(r), this.o.log);
  }

  /** Where the programs dial (the listener started on first use). */
  async connectUrl(): Promise<string> {
    const bound = await (this.listening ??= this.listener.listen(this.options.listen.host, this.options.listen.port));
    const base = this.options.connectUrl ?? `http://${bound.address.includes(':') ? `[${bound.address}]` : bound.address}:${bound.port}`;
    return `${base.replace(/\/+$/, '')}${CONNECT_PATH}`;
  }

  async start(spec: RuntimeSpec): Promise<void> {
    if (this.closing) throw new RuntimeUnavailableError('The agent runtime is shutting down');
    await this.instances.get(spec.userId)?.ending;
    const current = this.instances.get(spec.userId);
    if (current && !current.quiet && sameSpec(current.spec, spec)) return current.ready;
    if (current) await this.stop(spec.userId);
    const generation = randomBytes(6).toString('hex');
    const instance: Instance = {
      spec,
      name: `agent-host-${spec.userId}`,
      serviceId: null,
      generation,
      secret: `${generation}.${randomBytes(24).toString('base64url')}`,
      host: null,
      waiting: [],
      connected: new Set(),
      fenced: new Set(),
      ready: Promise.resolve(),
      live: false,
      quiet: false,
      ending: null,
      startedAt: Date.now(),
      lastCpu: null,
    };
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

  /** Scales the service to 0 and waits for its task to be gone; the service and its generation's secret stay until `remove`. */
  async stop(userId: UserId): Promise<void> {
    await this.instances.get(userId)?.ending;
    const instance = this.instances.get(userId);
    if (!instance) return;
    instance.quiet = true;
    await instance.ready.catch(() => undefined);
    try {
      await this.scale(instance.name, 0);
      await this.untilNoTaskRuns(instance.name);
    } catch (err) {
      instance.quiet = false;
      throw err;
    }
    instance.host?.close();
    instance.host = null;
    this.wake(instance);
    if (this.instances.get(userId) === instance) this.instances.delete(userId);
  }

  /** Removes the user's service and its secrets (the instance is deleted); one already gone is not an error. */
  async remove(userId: UserId): Promise<void> {
    const instance = this.instances.get(userId);
    if (instance) {
      instance.quiet = true;
      await instance.ready.catch(() => undefined);
      instance.host?.close();
    }
    const name = `agent-host-${userId}`;
    const deleted = await this.engine.call('DELETE', `/services/${name}`);
    if (![200, 404].includes(deleted.status)) throw new RuntimeUnavailableError(`Swarm service delete answered ${deleted.status}`);
    await this.untilNoTaskRuns(name).catch(() => undefined);
    await this.removeSecrets(userId, null);
    if (instance && this.instances.get(userId) === instance) this.instances.delete(userId);
  }

  isRunning(userId: UserId): boolean {
    const i = this.instances.get(userId);
    return !!i && i.live && !i.quiet;
  }

  async deliver(userId: UserId, delivery: Delivery, options: { signal?: AbortSignal; onDelta?: (text: string) => void } = {}): Promise<RuntimeReply> {
    options.signal?.throwIfAborted();
    const host = await this.hostOf(userId, options.signal);
    options.signal?.throwIfAborted();
    const reply = await deliverThrough(host, delivery, options);
    // the reply came on this epoch's connection; it counts only while that epoch is still the instance's
    if (this.instances.get(userId)?.host !== host) throw new RuntimeUnavailableError('The agent runtime moved while answering');
    return reply;
  }

  async resetMemory(userId: UserId): Promise<void> {
    await requestThrough(await this.hostOf(userId), { ...msg, type: 'reset-memory', id: randomUUID() });
  }

  /** Test hooks (RUNTIME_TEST_HOOKS=1, NODE_ENV=test only): as the docker runtime's. */
  async debug(userId: UserId, hook: { type: 'allocate'; bytes: number } | { type: 'state' }): Promise<number> {
    const id = randomUUID();
    const answer = await requestThrough(await this.hostOf(userId), hook.type === 'allocate' ? { ...msg, type: 'debug-allocate', id, bytes: hook.bytes } : { ...msg, type: 'debug-state', id });
    return answer.type === 'ack' ? (answer.agents ?? 0) : 0;
  }

  /** The epoch of the user's running instance: the task whose program is connected (tests, diagnostics). */
  epochOf(userId: UserId): string | undefined {
    return this.instances.get(userId)?.host?.task;
  }

  /** Live figures: the connected program reads its container's cgroup (a manager cannot read a container on another node). */
  async stats(userId: UserId): Promise<RuntimeStats | null> {
    const i = this.instances.get(userId);
    if (!i || !i.live || !i.host?.alive) return null;
    let timer: NodeJS.Timeout | undefined;
    const answer = await Promise.race([
      requestThrough(i.host, { ...msg, type: 'stats', id: randomUUID() }),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new RuntimeUnavailableError('The agent program did not answer for its stats')), this.o.callTimeoutMs))),
    ]).finally(() => clearTimeout(timer));
    const s: HostStats | undefined = answer.type === 'ack' ? answer.stats : undefined;
    if (!s) return null;
    const now = Date.now();
    let cpuPercent = 0;
    if (s.cpuNs !== null) {
      if (i.lastCpu && now > i.lastCpu.at) cpuPercent = Math.max(0, Math.round(((s.cpuNs - i.lastCpu.ns) / ((now - i.lastCpu.at) * 1e6)) * 1000) / 10);
      i.lastCpu = { ns: s.cpuNs, at: now };
    }
    const rssBytes = s.memoryBytes ?? 0;
    return { cpuPercent, rssBytes, memoryPercent: Math.round((rssBytes / i.spec.ramCapBytes) * 1000) / 10, pids: s.pids ?? 0, uptimeMs: now - i.startedAt };
  }

  onExit(listener: (userId: UserId, exit: RuntimeExit) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const i of this.instances.values()) this.wake(i);
    if (this.poller) clearInterval(this.poller);
    if (this.pinger) clearInterval(this.pinger);
    this.poller = null;
    this.pinger = null;
    await Promise.allSettled([...this.instances.keys()].map((u) => this.stop(u)));
    await this.listener.close();
  }

  // ---- connections --------------------------------------------------------------------------

  /** The connected program of the current epoch; waits for one (a task moving nodes) up to failoverWaitMs. */
  private async hostOf(userId: UserId, signal?: AbortSignal): Promise<ConnectedHost> {
    const deadline = Date.now() + this.o.failoverWaitMs;
    for (;;) {
      const i = this.instances.get(userId);
      if (!i || !i.live || i.quiet) throw new RuntimeUnavailableError('The agent runtime is not running');
      if (i.host?.alive) return i.host;
      const left = deadline - Date.now();
      if (left <= 0) throw new RuntimeUnavailableError('The agent program did not connect in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(left, 1_000));
        function done() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        }
        i.waiting.push(done);
        signal?.addEventListener('abort', done, { once: true });
      });
      signal?.throwIfAborted();
    }
  }

  private wake(i: Instance): void {
    for (const w of i.waiting.splice(0)) w();
  }

  /**
   * A program dialling in: taken when its secret is the current generation's and the manager lists
   * its task as the one Swarm wants running; refused as stale (403, final) otherwise.
   */
  private async admit(r: ConnectRequest): Promise<Admission> {
    const i = this.instances.get(r.userId as UserId);
    if (!i || i.quiet || this.closing) return { ok: false, status: 404, code: 'NOT_HERE' };
    if (!equalSecret(r.secret, i.secret)) return this.stale(r, 'an older generation');
    const tasks = await this.tasksOf(i.name);
    const task = tasks.find((t) => t.ID === r.task);
    if (!task || task.DesiredState !== 'running') return this.stale(r, 'a task Swarm no longer wants');
    if (this.instances.get(r.userId as UserId) !== i || i.quiet) return { ok: false, status: 404, code: 'NOT_HERE' };
    return {
      ok: true,
      take: (socket: Socket, head: Buffer) => {
        const calls = this.callsFor(i.spec);
        const host = new ConnectedHost(socket, r.task, { calls, gatewayToken: i.spec.gatewayToken, log: this.o.log }, head);
        host.send(INIT_WITHOUT_TOKEN);
        requestThrough(host, { ...msg, type: 'ping', id: randomUUID() }).then(
          () => {
            if (this.instances.get(r.userId as UserId) !== i || i.quiet || !host.alive) return host.close();
            const previous = i.host;
            i.host = host;
            i.connected.add(r.task);
            if (previous && previous !== host) {
              this.o.log(`swarm: instance of ${r.userId} now runs as task ${r.task}; the connection of task ${previous.task} is closed`);
              previous.close();
            }
            void host.closed.then(() => {
              if (i.host === host) i.host = null;
              this.ensurePolling();
              void this.poll(); // a program that went away: look at its task now
            });
            this.wake(i);
            this.ensurePinging();
          },
          () => host.close(),
        );
      },
    };
  }

  private stale(r: ConnectRequest, why: string): Admission {
    this.refusedStale++;
    this.o.log(`swarm: refused task ${r.task} of ${r.userId}: ${why}`);
    return { ok: false, status: 403, code: 'EPOCH_FENCED' };
  }

  private callsFor(spec: RuntimeSpec): () => HostCalls {
    const local = this.options.serviceCalls;
    if (local) return local;
    let http = this.httpCalls.get(spec.serviceUrl);
    if (!http) this.httpCalls.set(spec.serviceUrl, (http = new HttpHostCalls(spec.serviceUrl)));
    const calls = http;
    return () => calls;
  }

  private ensurePinging(): void {
    if (this.pinger) return;
    this.pinger = setInterval(() => {
      for (const i of this.instances.values()) {
        const host = i.host;
        if (!host?.alive) continue;
        let answered = false;
        requestThrough(host, { ...msg, type: 'ping', id: randomUUID() }).then(
          () => (answered = true),
          () => undefined,
        );
        // silent for three intervals: the connection is dead (a cut-off node), whatever TCP says
        setTimeout(() => !answered && host.close(), this.o.pingIntervalMs * 3).unref();
      }
    }, this.o.pingIntervalMs);
    this.pinger.unref();
  }

  // ---- the manager ----------------------------------------------------------------------------

  /** Secret, then the service (made, or updated to this generation), then the program's connection. */
  private async launch(i: Instance): Promise<void> {
    const deadline = Date.now() + this.o.startTimeoutMs;
    const left = () => Math.max(1, deadline - Date.now());
    const url = await this.connectUrl();
    const secret = await this.engine.call(
      'POST',
      '/secrets/create',
      { Name: `${i.name}-${i.generation}`, Labels: { [USER_LABEL]: i.spec.userId, [GENERATION_LABEL]: i.generation }, Data: Buffer.from(i.secret).toString('base64') },
      left(),
    );
    if (secret.status !== 201) throw new RuntimeUnavailableError(`Swarm secret create answered ${secret.status}${secret.status === 503 ? ' (not a swarm manager)' : ''}`);
    const secretId = String((secret.body as { ID?: unknown }).ID ?? '');
    try {
      const existing = await this.engine.call('GET', `/services/${i.name}`, undefined, left());
      const body = this.serviceSpec(i, url, secretId);
      if (existing.status === 200) {
        const current = existing.body as { ID: string; Version?: { Index?: number }; Spec?: { TaskTemplate?: { ForceUpdate?: number } } };
        const force = (current.Spec?.TaskTemplate?.ForceUpdate ?? 0) + 1;
        const updated = await this.engine.call('POST', `/services/${current.ID}/update?version=${current.Version?.Index ?? 0}`, { ...body, TaskTemplate: { ...body.TaskTemplate, ForceUpdate: force } }, left());
        if (updated.status !== 200) throw new RuntimeUnavailableError(`Swarm service update answered ${updated.status}`);
        i.serviceId = current.ID;
      } else {
        const created = await this.engine.call('POST', '/services/create', body, left());
        if (created.status !== 201) throw new RuntimeUnavailableError(`Swarm service create answered ${created.status}`);
        i.serviceId = String((created.body as { ID?: unknown }).ID ?? '');
      }
      this.ensurePolling();
      // the program dials in: ready once it answered a ping on its connection
      while (!i.host?.alive) {
        if (Date.now() >= deadline) throw new RuntimeUnavailableError(`The agent program did not connect within ${this.o.startTimeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(500, left()));
          i.waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        if (this.instances.get(i.spec.userId) !== i || this.closing) throw new RuntimeUnavailableError('The start was superseded');
      }
    } catch (err) {
      // nothing half-made stays: the service (if this start made it) scaled to 0, the secret removed
      await this.scale(i.name, 0).catch(() => undefined);
      await this.removeSecrets(i.spec.userId, null).catch(() => undefined);
      throw err;
    }
    // the secrets of earlier generations are no longer referenced
    await this.removeSecrets(i.spec.userId, i.generation).catch((err: Error) => this.o.log(`swarm: old secrets of ${i.spec.userId} stay: ${err.message}`));
  }

  /** The service as POST /services/create takes it (Engine API v1.41). */
  private serviceSpec(i: Instance, connectUrl: string, secretId: string) {
    const { spec } = i;
    const labels = { [USER_LABEL]: spec.userId, [VERSION_LABEL]: spec.runtimeVersion, [GENERATION_LABEL]: i.generation };
    return {
      Name: i.name,
      Labels: labels,
      TaskTemplate: {
        ContainerSpec: {
          Image: this.o.image,
          Labels: labels,
          Env: [
            'LANG=C.UTF-8',
            'TZ=UTC',
            `AGENT_HOST_USER_ID=${spec.userId}`,
            `AGENT_HOST_SERVICE_URL=${spec.serviceUrl}`,
            `AGENT_HOST_RUNTIME_VERSION=${spec.runtimeVersion}`,
            `AGENT_HOST_REQUEST_TIMEOUT_MS=${this.o.requestTimeoutMs}`,
            'AGENT_HOST_TRANSPORT=connect',
            `AGENT_HOST_CONNECT_URL=${connectUrl}`,
            // the epoch: Swarm writes each task's own id here
            'AGENT_HOST_TASK={{.Task.ID}}',
            `AGENT_HOST_CONNECT_SECRET_FILE=/run/secrets/${SECRET_FILE}`,
            'AGENT_HOST_SERVICE_VIA=supervisor',
            ...(this.o.testHooks ? ['AGENT_HOST_TEST_HOOKS=1'] : []),
          ],
          User: '65534:65534',
          ReadOnly: true,
          Init: true,
          CapabilityDrop: ['ALL'],
          StopGracePeriod: this.o.stopTimeoutMs * 1e6,
          Mounts: [{ Type: 'tmpfs', Target: '/tmp', TmpfsOptions: { SizeBytes: this.o.tmpfsBytes, Mode: 0o1777 } }],
          Secrets: [{ SecretID: secretId, SecretName: `${i.name}-${i.generation}`, File: { Name: SECRET_FILE, UID: '65534', GID: '65534', Mode: 0o400 } }],
        },
        Resources: {
          Limits: { MemoryBytes: spec.ramCapBytes, NanoCPUs: Math.round(this.o.cpus * 1e9), Pids: this.o.pidsLimit },
          Reservations: { MemoryBytes: spec.ramCapBytes, NanoCPUs: Math.round(Math.min(this.o.cpuReservation, this.o.cpus) * 1e9) },
        },
        RestartPolicy: { Condition: 'any', Delay: this.o.restartDelayMs * 1e6, MaxAttempts: 0 },
        Placement: { Constraints: this.o.constraints },
        ...(this.o.network ? { Networks: [{ Target: this.o.network }] } : {}),
      },
      Mode: { Replicated: { Replicas: 1 } },
    };
  }

  /** Sets the service's replicas (its spec otherwise as it is); a service already gone is not an error. */
  private async scale(name: string, replicas: number): Promise<void> {
    for (let tries = 0; ; tries++) {
      const got = await this.engine.call('GET', `/services/${name}`);
      if (got.status === 404) return;
      if (got.status !== 200) throw new RuntimeUnavailableError(`Swarm service inspect answered ${got.status}`);
      const s = got.body as { ID: string; Version?: { Index?: number }; Spec: { Mode?: { Replicated?: { Replicas?: number } } } };
      if (s.Spec.Mode?.Replicated?.Replicas === replicas) return;
      const updated = await this.engine.call('POST', `/services/${s.ID}/update?version=${s.Version?.Index ?? 0}`, { ...s.Spec, Mode: { Replicated: { Replicas: replicas } } });
      if (updated.status === 200) return;
      // another update came between our read and write (the version moved): read again
      if (tries >= 5 || ![400, 409, 500].includes(updated.status)) throw new RuntimeUnavailableError(`Swarm service scale answered ${updated.status}`);
    }
  }

  /** Waits (up to the stop grace and then some) until no task of the service runs. */
  private async untilNoTaskRuns(name: string): Promise<void> {
    const deadline = Date.now() + this.o.stopTimeoutMs + 15_000;
    for (;;) {
      const tasks = await this.tasksOf(name);
      if (!tasks.some((t) => !ENDED.has(t.Status?.State ?? ''))) return;
      if (Date.now() > deadline) throw new RuntimeUnavailableError(`A task of ${name} still runs after the stop`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  private async tasksOf(service: string): Promise<SwarmTask[]> {
    const filters = encodeURIComponent(JSON.stringify({ service: [service] }));
    const res = await this.engine.call('GET', `/tasks?filters=${filters}`);
    if (res.status === 404) return [];
    if (res.status !== 200 || !Array.isArray(res.body)) throw new RuntimeUnavailableError(`Swarm task list answered ${res.status}`);
    return res.body as SwarmTask[];
  }

  /** The user's connect secrets but the generation `keep`'s. */
  private async removeSecrets(userId: UserId, keep: string | null): Promise<void> {
    const filters = encodeURIComponent(JSON.stringify({ label: [`${USER_LABEL}=${userId}`] }));
    const res = await this.engine.call('GET', `/secrets?filters=${filters}`);
    if (res.status !== 200 || !Array.isArray(res.body)) throw new RuntimeUnavailableError(`Swarm secret list answered ${res.status}`);
    for (const s of res.body as { ID: string; Spec?: { Labels?: Record<string, string> } }[]) {
      if (keep !== null && s.Spec?.Labels?.[GENERATION_LABEL] === keep) continue;
      // 400/409: still referenced by a task being stopped; it goes with a later start or removal
      await this.engine.call('DELETE', `/secrets/${s.ID}`).catch(() => undefined);
    }
  }

  // ---- the poll: fencing and crashes ------------------------------------------------------------

  private ensurePolling(): void {
    if (this.poller) return;
    this.poller = setInterval(() => void this.poll(), this.o.pollIntervalMs);
    this.poller.unref();
  }

  /**
   * One look at every task of ours: a connected task Swarm no longer wants is fenced (its
   * connection closed: it may be running on a node the manager lost); a task that connected in
   * this generation and ended on its own (failed, complete) while Swarm still wanted it is a crash.
   */
  private async poll(): Promise<void> {
    const watched = [...this.instances.entries()].filter(([, i]) => i.live && !i.quiet && !i.ending && i.serviceId);
    if (this.polling || watched.length === 0) return;
    this.polling = true;
    try {
      const filters = encodeURIComponent(JSON.stringify({ service: watched.map(([, i]) => i.serviceId!) }));
      const res = await this.engine.call('GET', `/tasks?filters=${filters}`);
      if (res.status !== 200 || !Array.isArray(res.body)) throw new RuntimeUnavailableError(`Swarm task list answered ${res.status}`);
      const byService = new Map<string, SwarmTask[]>();
      for (const t of res.body as SwarmTask[]) byService.set(t.ServiceID, [...(byService.get(t.ServiceID) ?? []), t]);
      for (const [userId, i] of watched) {
        if (i.quiet || this.instances.get(userId) !== i) continue;
        const tasks = byService.get(i.serviceId!) ?? [];
        for (const t of tasks) {
          if (!i.connected.has(t.ID)) continue;
          const state = t.Status?.State ?? '';
          if ((state === 'failed' || state === 'complete') && !i.fenced.has(t.ID)) {
            await (i.ending = this.ended(userId, i, t));
            break;
          }
          if (t.DesiredState !== 'running' && !ENDED.has(state)) {
            if (!i.fenced.has(t.ID)) this.o.log(`swarm: task ${t.ID} of ${userId} is no longer wanted (${state} on node ${t.NodeID ?? '?'}): fenced`);
            i.fenced.add(t.ID);
            if (i.host?.task === t.ID) i.host.close();
          }
        }
      }
    } catch (err) {
      // the manager not answering proves nothing about the tasks: look again next tick
      this.o.log(`swarm: task poll failed: ${(err as Error).message}`);
    } finally {
      this.polling = false;
    }
  }

  private async ended(userId: UserId, i: Instance, t: SwarmTask): Promise<void> {
    const code = t.Status?.ContainerStatus?.ExitCode ?? null;
    i.quiet = true;
    i.host?.close();
    await this.scale(i.name, 0).catch((err: Error) => this.o.log(`swarm: ${i.name} could not be scaled to 0: ${err.message}`));
    const exit: RuntimeExit =
      code === 137
        ? { reason: 'memory_cap', code, signal: 'SIGKILL', detail: `killed at its memory cap of ${i.spec.ramCapBytes} bytes` }
        : { reason: 'crashed', code, signal: null, detail: `task exited${code !== null ? ` with code ${code}` : ''}${t.Status?.Err ? `: ${t.Status.Err}` : ''}` };
    this.o.log(`swarm: instance of ${userId} ended: ${exit.detail}`);
    if (this.instances.get(userId) === i) this.instances.delete(userId);
    this.wake(i);
    for (const l of this.listeners) l(userId, exit);
  }
}
