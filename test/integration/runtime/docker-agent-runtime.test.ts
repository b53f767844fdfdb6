import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { RuntimeUnavailableError } from '../../../src/application/agents/runtime.errors.js';
import type { RuntimeExit, RuntimeSpec } from '../../../src/application/ports/agent-runtime.port.js';
import { DockerAgentRuntime, type DockerRuntimeOptions } from '../../../src/adapters/outbound/runtime/docker/docker-agent-runtime.js';
import { loadConfig } from '../../../src/bootstrap/config.js';
import { createAgentRuntime } from '../../../src/bootstrap/create-agent-runtime.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { startDockerStandIn } from '../../support/runtime/docker-engine-stand-in.js';
import { startStandInService } from '../../support/runtime/stand-in-service.js';

const GB = 1024 ** 3;
const TOKEN = `gw_${'t'.repeat(40)}`;
const delivery = () => ({ agentId: randomUUID(), model: 'm', content: 'hi', config: {}, memory: {}, history: [] });
const IMAGE = 'agent-host-runtime:test';
const runtimes: DockerAgentRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.close()));
});

async function setUp(options: Partial<DockerRuntimeOptions> = {}) {
  const engine = await startDockerStandIn();
  const r = new DockerAgentRuntime({ socketPath: engine.socketPath, image: IMAGE, pollIntervalMs: 50, callTimeoutMs: 1_000, startTimeoutMs: 2_000, stopTimeoutMs: 1_000, ...options });
  runtimes.push(r);
  const exits: { userId: UserId; exit: RuntimeExit }[] = [];
  r.onExit((userId, exit) => exits.push({ userId, exit }));
  return { engine, r, exits };
}

const specFor = (over: Partial<RuntimeSpec> = {}): RuntimeSpec => ({
  userId: randomUUID() as UserId,
  runtimeVersion: 'agent-host-1',
  ramCapBytes: 2 * GB,
  gatewayToken: `gw_${randomUUID()}`,
  serviceUrl: 'http://host.docker.internal:3000',
  ...over,
});
const until = async (check: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('DockerAgentRuntime against a stand-in Engine API', () => {
  it('when started, then it creates a container of the image with only the AGENT_HOST_* environment (no gateway token), the RAM cap and our labels, on the pinned API version, and starts it', async () => {
    const saved = process.env.JWT_SECRET;
    process.env.JWT_SECRET = 'parent-secret-must-not-reach-the-container';
    try {
      const { engine, r } = await setUp();
      const spec = specFor();
      await r.start(spec);
      expect(r.isRunning(spec.userId)).toBe(true);
      expect(engine.requests.every((q) => q.url.startsWith('/v1.43/'))).toBe(true);
      const create = engine.requests.find((q) => q.url.startsWith('/v1.43/containers/create'))!;
      expect(create.method).toBe('POST');
      expect(create.url).toBe(`/v1.43/containers/create?name=agent-host-${spec.userId}`);
      expect(create.body.Image).toBe(IMAGE);
      expect(create.body.Env.sort()).toEqual(
        [
          'LANG=C.UTF-8',
          'TZ=UTC',
          `AGENT_HOST_USER_ID=${spec.userId}`,
          `AGENT_HOST_SERVICE_URL=${spec.serviceUrl}`,
          'AGENT_HOST_RUNTIME_VERSION=agent-host-1',
          'AGENT_HOST_REQUEST_TIMEOUT_MS=120000',
          'AGENT_HOST_TRANSPORT=stdio',
        ].sort(),
      );
      expect(JSON.stringify(create.body)).not.toContain('parent-secret');
      // the gateway token is handed over on the attach stream: nothing `docker inspect` shows carries it
      expect(JSON.stringify(create.body)).not.toContain(spec.gatewayToken);
      expect(JSON.stringify(engine.containers.get([...engine.containers.keys()][0]!)!.config)).not.toContain(spec.gatewayToken);
      expect(create.body.Labels).toEqual({ 'agent-host.user': spec.userId, 'agent-host.version': 'agent-host-1' });
      expect(create.body.HostConfig).toMatchObject({ Memory: 2 * GB, MemorySwap: 2 * GB, CapDrop: ['ALL'], SecurityOpt: ['no-new-privileges'] });
      expect(create.body).toMatchObject({ OpenStdin: true, StdinOnce: false, AttachStdin: true, AttachStdout: true, Tty: false });
      const [id] = engine.containers.keys();
      expect(engine.requests.map((q) => `${q.method} ${q.url}`)).toEqual(
        expect.arrayContaining([`POST /v1.43/containers/${id}/start`, `GET /v1.43/containers/${id}/json`, `POST /v1.43/containers/${id}/attach?stream=1&stdin=1&stdout=1&stderr=1`]),
      );
      expect(engine.containers.get(id!)!.state).toBe('running');

      // the same spec again joins it (a retried provision job): no second container
      await r.start(spec);
      expect(engine.requests.filter((q) => q.url.includes('/containers/create'))).toHaveLength(1);
    } finally {
      saved === undefined ? delete process.env.JWT_SECRET : (process.env.JWT_SECRET = saved);
    }
  });

  it('when a container of the same name is left over, then it is removed and created afresh', async () => {
    const { engine, r } = await setUp();
    const spec = specFor();
    const other = new DockerAgentRuntime({ socketPath: engine.socketPath, image: IMAGE });
    runtimes.push(other);
    await other.start(spec); // a previous worker that died without stopping it
    await r.start(spec);
    expect(engine.containers.size).toBe(1);
    expect(engine.requests.filter((q) => q.method === 'DELETE' && q.url === `/v1.43/containers/agent-host-${spec.userId}?force=true`)).toHaveLength(1);
  });

  it('when stats are asked, then CPU percent comes from cpu_stats and precpu_stats, memory without the page cache, and pids', async () => {
    const { engine, r } = await setUp();
    const spec = specFor();
    expect(await r.stats(spec.userId)).toBeNull();
    await r.start(spec);
    const s = await r.stats(spec.userId);
    // (2e6 - 1e6) / (2e7 - 1e7) * 2 CPUs * 100 = 20 %
    expect(s).toMatchObject({ cpuPercent: 20, rssBytes: 256 * 2 ** 20, memoryPercent: 12.5, pids: 7 });
    expect(s!.uptimeMs).toBeGreaterThanOrEqual(0);
    expect(engine.requests.at(-1)!.url).toBe(`/v1.43/containers/${[...engine.containers.keys()][0]}/stats?stream=false`);
  });

  it('when stopped, then the daemon is asked to stop with the timeout and the container is deleted; no exit is reported', async () => {
    const { engine, r, exits } = await setUp({ stopTimeoutMs: 3_000 });
    const spec = specFor();
    await r.start(spec);
    const [id] = engine.containers.keys();
    await r.stop(spec.userId);
    expect(r.isRunning(spec.userId)).toBe(false);
    expect(engine.requests.map((q) => `${q.method} ${q.url}`).slice(-2)).toEqual([`POST /v1.43/containers/${id}/stop?t=3`, `DELETE /v1.43/containers/${id}?force=true`]);
    expect(engine.containers.size).toBe(0);
    await r.stop(spec.userId); // stopping what does not run is not an error
    await new Promise((res) => setTimeout(res, 200));
    expect(exits).toEqual([]);
  });

  it('when a container exits on its own or is OOM-killed, then onExit reports crashed or memory_cap within the poll and it no longer runs', async () => {
    const { engine, r, exits } = await setUp();
    const a = specFor();
    const b = specFor();
    await r.start(a);
    await r.start(b);
    const idOf = (userId: string) => [...engine.containers.values()].find((c) => c.config.Labels['agent-host.user'] === userId)!.id;
    engine.exit(idOf(a.userId), { exitCode: 1 });
    engine.exit(idOf(b.userId), { exitCode: 137, oomKilled: true });
    await until(() => exits.length === 2);
    const byUser = Object.fromEntries(exits.map((e) => [e.userId, e.exit]));
    expect(byUser[a.userId]).toMatchObject({ reason: 'crashed', code: 1 });
    expect(byUser[b.userId]).toMatchObject({ reason: 'memory_cap', code: 137 });
    expect(r.isRunning(a.userId)).toBe(false);
    expect(engine.containers.size).toBe(0);
    // started again afterwards, it runs
    await r.start(a);
    expect(r.isRunning(a.userId)).toBe(true);
  });

  it('when the daemon fails, hangs or is absent, then the call rejects with RuntimeUnavailableError within its timeout, and nothing is left running', async () => {
    const { engine, r } = await setUp({ startTimeoutMs: 500, callTimeoutMs: 300 });
    engine.failOn(/\/containers\/create/);
    await expect(r.start(specFor())).rejects.toBeInstanceOf(RuntimeUnavailableError);

    engine.reset();
    engine.failOn(/\/start$/);
    const failedStart = specFor();
    await expect(r.start(failedStart)).rejects.toBeInstanceOf(RuntimeUnavailableError);
    expect(r.isRunning(failedStart.userId)).toBe(false);
    expect(engine.containers.size).toBe(0); // the created container was removed

    engine.reset();
    engine.hangOn(/\/containers\/create/);
    const t0 = Date.now();
    await expect(r.start(specFor())).rejects.toBeInstanceOf(RuntimeUnavailableError);
    expect(Date.now() - t0).toBeLessThan(1_500);

    engine.reset();
    const spec = specFor();
    await r.start(spec);
    engine.hangOn(/\/stats/);
    await expect(r.stats(spec.userId)).rejects.toBeInstanceOf(RuntimeUnavailableError);
    // a failing list is no crash: the instance stays up
    engine.reset();
    engine.failOn(/\/containers\/json\?/);
    await new Promise((res) => setTimeout(res, 200));
    expect(r.isRunning(spec.userId)).toBe(true);
    engine.reset();

    const absent = new DockerAgentRuntime({ socketPath: `${engine.socketPath}.missing`, image: IMAGE, callTimeoutMs: 300 });
    await expect(absent.start(specFor())).rejects.toBeInstanceOf(RuntimeUnavailableError);
  });

  it('when a message is delivered, then the program in the container answers it through the service on the attach stream, streamed or whole, with the container\'s token', async () => {
    const service = await startStandInService(TOKEN);
    try {
      const { r } = await setUp();
      const spec = specFor({ gatewayToken: TOKEN, serviceUrl: service.url });
      await expect(r.deliver(spec.userId, delivery())).rejects.toBeInstanceOf(RuntimeUnavailableError); // not started
      await r.start(spec);
      service.set({ kind: 'answer', deltas: ['Hel', 'lo'] });
      const deltas: string[] = [];
      await expect(r.deliver(spec.userId, delivery(), { onDelta: (t) => deltas.push(t) })).resolves.toMatchObject({ content: 'Hello', model: 'stand-in-model' });
      expect(deltas.join('')).toBe('Hello');
      await expect(r.deliver(spec.userId, delivery())).resolves.toMatchObject({ content: 'Hello' });
      expect(service.calls.map((c) => c.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
      expect(service.calls.map((c) => c.accept)).toEqual(['text/event-stream', 'application/json']);
      expect(service.calls[0]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'hi' });

      // a failure at the service is the runtime's reply error, with its code
      service.set({ kind: 'fail', status: 502, code: 'PROVIDER_ERROR' });
      await expect(r.deliver(spec.userId, delivery())).rejects.toMatchObject({ failure: 'PROVIDER_ERROR' });
      await r.resetMemory(spec.userId); // a message to the program; the container keeps running
      expect(r.isRunning(spec.userId)).toBe(true);
    } finally {
      await service.close();
    }
  });

  it('when the caller cancels, or the container dies mid-answer, then the service sees the call end, or the delivery fails as runtime unavailable', async () => {
    const service = await startStandInService(TOKEN);
    try {
      const { engine, r, exits } = await setUp();
      const spec = specFor({ gatewayToken: TOKEN, serviceUrl: service.url });
      await r.start(spec);
      service.set({ kind: 'hang', deltas: ['partial'] });
      const controller = new AbortController();
      const called = service.nextCall();
      const cancelled = r.deliver(spec.userId, delivery(), { signal: controller.signal }).catch((e: unknown) => e);
      const call = await called;
      controller.abort();
      expect(await cancelled).toBeInstanceOf(Error);
      await call.clientLeft; // the program aborted its request

      const hanging = service.nextCall();
      const lost = r.deliver(spec.userId, delivery()).catch((e: unknown) => e);
      await hanging;
      engine.exit([...engine.containers.keys()][0]!, { exitCode: 137 });
      expect(await lost).toBeInstanceOf(RuntimeUnavailableError);
      await until(() => exits.length === 1);
      expect(r.isRunning(spec.userId)).toBe(false);
    } finally {
      await service.close();
    }
  });

  it('when the attach stream closes under a running container, then the next deliveries attach again, once', async () => {
    const service = await startStandInService(TOKEN);
    try {
      const { engine, r } = await setUp();
      const spec = specFor({ gatewayToken: TOKEN, serviceUrl: service.url });
      await r.start(spec);
      const [c] = engine.containers.values();
      for (const s of c!.attached) s.destroy(); // the daemon dropped the connection; the program runs on
      await new Promise((resolve) => setTimeout(resolve, 200)); // our side sees the close a moment later
      service.set({ kind: 'answer', deltas: ['again'] });
      // two deliveries at once share the one new attach
      const answers = await Promise.all([r.deliver(spec.userId, delivery()), r.deliver(spec.userId, delivery())]);
      expect(answers).toMatchObject([{ content: 'again' }, { content: 'again' }]);
      expect(engine.requests.filter((q) => q.url.includes('/attach'))).toHaveLength(2);
      expect(c!.attached.size).toBe(1);
    } finally {
      await service.close();
    }
  });

  it('when the program does not answer after start, then the start fails and nothing is left running', async () => {
    const { spawn } = await import('node:child_process');
    // an image whose program never speaks the protocol
    const engine = await startDockerStandIn({ run: () => spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['pipe', 'pipe', 'pipe'] }) });
    const r = new DockerAgentRuntime({ socketPath: engine.socketPath, image: IMAGE, pollIntervalMs: 50, callTimeoutMs: 1_000, startTimeoutMs: 1_500, stopTimeoutMs: 1_000 });
    runtimes.push(r);
    await expect(r.start(specFor())).rejects.toBeInstanceOf(RuntimeUnavailableError);
    expect(engine.containers.size).toBe(0);
  });

  it('when AGENT_RUNTIME=docker, then createAgentRuntime builds the docker adapter on DOCKER_SOCKET', async () => {
    const { engine } = await setUp();
    const config = loadConfig({
      NODE_ENV: 'test',
      JWT_SECRET: 'x'.repeat(40),
      COOKIE_SECRET: 'y'.repeat(40),
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      AGENT_RUNTIME: 'docker',
      DOCKER_SOCKET: engine.socketPath,
      RUNTIME_DOCKER_IMAGE: IMAGE,
    });
    const r = createAgentRuntime(config, pino({ level: 'silent' }));
    expect(r.kind).toBe('docker');
    const spec = specFor();
    await r.start(spec);
    expect(engine.requests.find((q) => q.url.includes('/containers/create'))!.body.Image).toBe(IMAGE);
    await r.close();
    expect(engine.containers.size).toBe(0);
  });
});
