import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RuntimeUnavailableError } from '../../../src/application/agents/runtime.errors.js';
import type { RuntimeExit, RuntimeSpec } from '../../../src/application/ports/agent-runtime.port.js';
import { DockerAgentRuntime, type DockerRuntimeOptions } from '../../../src/adapters/outbound/agent-runtimes/docker/docker-agent-runtime.js';
import { dockerEndpoint, type DockerEndpoint } from '../../../src/adapters/outbound/agent-runtimes/docker/docker-endpoint.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { dockerEngine, type DockerTestEngine } from '../../support/agent-runtimes/docker-engine.js';
import { startCuttableUnixProxy } from '../../support/agent-runtimes/cuttable-unix-proxy.js';
import { startStandInService } from '../../support/agent-runtimes/stand-in-service.js';
import { sleep } from '../../support/polling.js';

/**
 * DockerAgentRuntime against a real Docker Engine (the run's private dockerd, or DOCKER_HOST) and
 * the real agent-host image built offline: the container's limits as the daemon reports them and
 * as the program sees them from inside, chat over the attach stream with the service calls relayed
 * on it (the container has no network), stats, and the faults a real engine can produce on demand:
 * a kill from outside, the kernel's OOM kill at the cap, a leftover container, a daemon that is
 * not there, an attach stream cut mid-answer (a loopback proxy in front of the daemon's socket),
 * and the TCP + TLS endpoint. What a real daemon cannot be made to do (answer 500, hang) stays
 * with the stand-in: docker-engine-stand-in.test.ts.
 */
const engine = await dockerEngine();
const skip = 'skip' in engine ? engine.skip : null;

const MB = 2 ** 20;
const TOKEN = `gw_${'t'.repeat(40)}`;
const delivery = () => ({ agentId: randomUUID(), model: 'm', content: 'hi', config: {}, memory: {}, history: [] });

describe.skipIf(skip)(`DockerAgentRuntime on a real Docker Engine${skip ? ` (skipped: ${skip})` : ''}`, () => {
  // nothing is started without an engine; one skipped entry carries the reason into the report
  if (skip) return void it.skip(`needs a Docker Engine: ${skip}`, () => undefined);
  const e = engine as DockerTestEngine;
  const local = dockerEndpoint({ host: e.host, tlsVerify: false, certPath: '' });
  const runtimes: DockerAgentRuntime[] = [];
  const service = startStandInService(TOKEN);
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((r) => r.close()));
  });
  afterAll(async () => (await service).close());

  function runtime(options: Partial<DockerRuntimeOptions> = {}, endpoint: DockerEndpoint = local) {
    const r = new DockerAgentRuntime({ endpoint, image: e.image, pollIntervalMs: 200, callTimeoutMs: 10_000, startTimeoutMs: 20_000, stopTimeoutMs: 2_000, testHooks: true, ...options });
    runtimes.push(r);
    const exits: { userId: UserId; exit: RuntimeExit }[] = [];
    r.onExit((userId, exit) => exits.push({ userId, exit }));
    return { r, exits };
  }
  const specFor = async (over: Partial<RuntimeSpec> = {}): Promise<RuntimeSpec> => ({
    userId: randomUUID() as UserId,
    runtimeVersion: 'agent-host-1',
    ramCapBytes: 256 * MB,
    gatewayToken: TOKEN,
    serviceUrl: (await service).url,
    ...over,
  });
  const inspect = (nameOrId: string) => JSON.parse(e.docker('inspect', nameOrId))[0];
  const containersOf = (userId: string) => e.docker('ps', '-aq', '--filter', `label=agent-host.user=${userId}`).split('\n').filter(Boolean);
  /** Runs node inside the container (as its user) and returns what the script printed, parsed. */
  const inside = (id: string, script: string) => JSON.parse(e.docker('exec', id, '/usr/local/bin/node', '-e', script));

  it('when started, then the container has the plan\'s RAM, a CPU and pids cap, no capability, no new privileges, a read-only root, uid 65534, our labels and no network; the program sees the same from inside', async () => {
    const saved = process.env.JWT_SECRET;
    process.env.JWT_SECRET = 'parent-secret-must-not-reach-the-container';
    try {
      const { r } = runtime({ cpus: 0.5 });
      const spec = await specFor();
      await r.start(spec);
      expect(r.isRunning(spec.userId)).toBe(true);
      const c = inspect(`agent-host-${spec.userId}`);
      expect(c.State.Running).toBe(true);
      expect(c.Config.Image).toBe(e.image);
      expect(c.Config.User).toBe('65534:65534');
      expect(c.Config.Labels).toMatchObject({ 'agent-host.user': spec.userId, 'agent-host.version': 'agent-host-1' });
      expect(c.HostConfig).toMatchObject({
        Memory: 256 * MB,
        MemorySwap: 256 * MB,
        NanoCpus: 500_000_000,
        PidsLimit: 512,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        ReadonlyRootfs: true,
        NetworkMode: 'none',
        // stdout carries prompts and answers: the daemon keeps no log of it
        LogConfig: { Type: 'none' },
      });
      expect(Object.keys(c.HostConfig.Tmpfs)).toEqual(['/tmp']);
      expect(Object.keys(c.NetworkSettings.Networks)).toEqual(['none']);
      const env: string[] = c.Config.Env;
      expect(env.filter((v) => !v.startsWith('AGENT_HOST_') && !/^(LANG|TZ|PATH|NODE_ENV)=/.test(v))).toEqual([]);
      expect(JSON.stringify(env)).not.toContain('parent-secret');
      // the gateway token is handed over on the attach stream: nothing `docker inspect` shows carries it
      expect(JSON.stringify(c)).not.toContain(spec.gatewayToken);
      expect(env).toContain('AGENT_HOST_SERVICE_VIA=supervisor');

      // from inside: only the loopback interface; every process (the init and the program) as 65534 with no capability and no_new_privs
      expect(inside(c.Id, `console.log(JSON.stringify(Object.keys(require('os').networkInterfaces())))`)).toEqual(['lo']);
      const procs = inside(
        c.Id,
        `const fs=require('fs');console.log(JSON.stringify(fs.readdirSync('/proc').filter(p=>/^\\d+$/.test(p)).map(p=>{const s=fs.readFileSync('/proc/'+p+'/status','utf8');const f=k=>s.match(new RegExp('^'+k+':\\\\s*(.*)$','m'))[1];return {uid:f('Uid').split(/\\s+/)[0],capEff:f('CapEff'),nnp:f('NoNewPrivs')}})))`,
      );
      expect(procs.length).toBeGreaterThanOrEqual(3); // init, the program, this exec
      for (const p of procs) expect(p).toEqual({ uid: '65534', capEff: '0000000000000000', nnp: '1' });
      const writes = inside(
        c.Id,
        `const fs=require('fs');const t=(p)=>{try{fs.writeFileSync(p,'x');return 'ok'}catch(e){return e.code}};console.log(JSON.stringify({root:t('/opt/agent-host/x'),tmp:t('/tmp/x')}))`,
      );
      expect(writes).toEqual({ root: 'EROFS', tmp: 'ok' });

      // the same spec again joins it (a retried provision job): no second container
      await r.start(spec);
      expect(containersOf(spec.userId)).toHaveLength(1);
    } finally {
      saved === undefined ? delete process.env.JWT_SECRET : (process.env.JWT_SECRET = saved);
    }
  });

  it('when a message is delivered, then the program, which has no network, answers through the service over the attach stream, streamed or whole, with its token; stats come from the engine', async () => {
    const s = await service;
    const { r } = runtime();
    const spec = await specFor();
    await expect(r.deliver(spec.userId, delivery())).rejects.toBeInstanceOf(RuntimeUnavailableError); // not started
    await r.start(spec);
    const before = s.calls.length;
    s.set({ kind: 'answer', deltas: ['Hel', 'lo'] });
    const deltas: string[] = [];
    await expect(r.deliver(spec.userId, delivery(), { onDelta: (t) => deltas.push(t) })).resolves.toMatchObject({ content: 'Hello', model: 'stand-in-model' });
    expect(deltas.join('')).toBe('Hello');
    await expect(r.deliver(spec.userId, delivery())).resolves.toMatchObject({ content: 'Hello' });
    const calls = s.calls.slice(before);
    expect(calls.map((c) => c.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    expect(calls.map((c) => c.accept)).toEqual(['text/event-stream', 'application/json']);
    expect(calls[0]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'hi' });

    // a failure at the service is the runtime's reply error, with its code
    s.set({ kind: 'fail', status: 502, code: 'PROVIDER_ERROR' });
    await expect(r.deliver(spec.userId, delivery())).rejects.toMatchObject({ failure: 'PROVIDER_ERROR' });
    s.set({ kind: 'answer', deltas: ['ok'] });
    expect(await r.debug(spec.userId, { type: 'state' })).toBeGreaterThan(0);
    await r.resetMemory(spec.userId);
    expect(await r.debug(spec.userId, { type: 'state' })).toBe(0);
    expect(r.isRunning(spec.userId)).toBe(true);

    const stats = await r.stats(spec.userId);
    expect(stats!.rssBytes).toBeGreaterThan(5 * MB); // a node program's resident memory, as the cgroup counts it
    expect(stats!.rssBytes).toBeLessThan(256 * MB);
    expect(stats!.pids).toBeGreaterThanOrEqual(2);
    expect(stats!.cpuPercent).toBeGreaterThanOrEqual(0);
    expect(stats!.memoryPercent).toBeCloseTo((stats!.rssBytes / (256 * MB)) * 100, 0);
  });

  it('when AGENT_DOCKER_NETWORK names an internal network, then the container is on that network alone (no default bridge) and the program calls the service itself there, not through the worker', async () => {
    const network = `agent-hosts-${randomUUID().slice(0, 8)}`;
    e.docker('network', 'create', '--internal', network);
    const { r } = runtime({ network });
    try {
      const net = inspect(network);
      expect(net.Internal).toBe(true);
      // the host's side of the network (its gateway address) is where the operator's service listens
      const gateway: string = net.IPAM.Config[0].Gateway;
      const direct = await startStandInService(TOKEN, gateway);
      try {
        const spec = await specFor({ serviceUrl: direct.url });
        await r.start(spec);
        const c = inspect(r.containerOf(spec.userId)!);
        expect(c.HostConfig.NetworkMode).toBe(network);
        expect(Object.keys(c.NetworkSettings.Networks)).toEqual([network]);
        const address: string = c.NetworkSettings.Networks[network].IPAddress;
        expect(address).not.toBe('');
        const env: string[] = c.Config.Env;
        expect(env).toContain(`AGENT_HOST_SERVICE_URL=${direct.url}`);
        expect(env.some((v) => v.startsWith('AGENT_HOST_SERVICE_VIA='))).toBe(false);
        expect(inside(c.Id, `console.log(JSON.stringify(Object.keys(require('os').networkInterfaces()).sort()))`)).toEqual(['eth0', 'lo']);

        direct.set({ kind: 'answer', deltas: ['di', 'rect'] });
        const deltas: string[] = [];
        await expect(r.deliver(spec.userId, delivery(), { onDelta: (t) => deltas.push(t) })).resolves.toMatchObject({ content: 'direct', model: 'stand-in-model' });
        expect(deltas.join('')).toBe('direct');
        await expect(r.deliver(spec.userId, delivery())).resolves.toMatchObject({ content: 'direct' });
        // both calls came from the container's address on the network, with its token: no relay in the worker
        expect(direct.calls.map((x) => [x.remoteAddress, x.authorization])).toEqual([
          [address, `Bearer ${TOKEN}`],
          [address, `Bearer ${TOKEN}`],
        ]);
        await r.stop(spec.userId);
      } finally {
        await direct.close();
      }
    } finally {
      await r.close();
      e.docker('network', 'rm', network);
    }
    expect(() => inspect(network)).toThrow();
  });

  it('when stopped, then the container is gone and no exit is reported; started again, it runs a new one', async () => {
    const { r, exits } = runtime();
    const spec = await specFor();
    await r.start(spec);
    const first = r.containerOf(spec.userId)!;
    await r.stop(spec.userId);
    expect(r.isRunning(spec.userId)).toBe(false);
    expect(containersOf(spec.userId)).toEqual([]);
    await r.stop(spec.userId); // stopping what does not run is not an error
    await r.start(spec);
    expect(r.containerOf(spec.userId)).not.toBe(first);
    expect(containersOf(spec.userId)).toHaveLength(1);
    await sleep(400); // a negative: two polls of the container list (every 200 ms here) report no exit for the stopped one
    expect(exits).toEqual([]);
  });

  it('when the container is killed from outside, then onExit reports a crash within 5 s and the container is removed', async () => {
    const { r, exits } = runtime({ pollIntervalMs: 1_000 });
    const spec = await specFor();
    await r.start(spec);
    e.docker('kill', r.containerOf(spec.userId)!);
    const killedAt = Date.now();
    await expect.poll(() => exits.length, { timeout: 5_000, interval: 50 }).toBe(1);
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    expect(exits[0]).toMatchObject({ userId: spec.userId, exit: { reason: 'crashed', code: 137 } });
    expect(r.isRunning(spec.userId)).toBe(false);
    expect(containersOf(spec.userId)).toEqual([]);
  });

  it('when the program allocates past its memory cap, then the kernel kills it and onExit reports memory_cap (State.OOMKilled), not a plain stop', async () => {
    const { r, exits } = runtime();
    const spec = await specFor({ ramCapBytes: 96 * MB });
    await r.start(spec);
    const id = r.containerOf(spec.userId)!;
    await r.debug(spec.userId, { type: 'allocate', bytes: 256 * MB }).catch((err: unknown) => expect(err).toBeInstanceOf(RuntimeUnavailableError));
    await expect.poll(() => exits.length, { timeout: 5_000, interval: 50 }).toBe(1);
    expect(exits[0]!.exit).toMatchObject({ reason: 'memory_cap', signal: 'SIGKILL', detail: `killed at its memory cap of ${96 * MB} bytes` });
    expect(() => inspect(id)).toThrow(); // removed once reported
  });

  it('when a container of the instance is left over (a worker died), then it is replaced: one container, answering', async () => {
    const s = await service;
    const spec = await specFor();
    const { r: previous } = runtime();
    await previous.start(spec);
    const left = previous.containerOf(spec.userId)!;
    const { r } = runtime();
    await r.start(spec);
    expect(containersOf(spec.userId)).toEqual([r.containerOf(spec.userId)!.slice(0, 12)]);
    expect(r.containerOf(spec.userId)).not.toBe(left);
    s.set({ kind: 'answer', deltas: ['fresh'] });
    await expect(r.deliver(spec.userId, delivery())).resolves.toMatchObject({ content: 'fresh' });
  });

  it('when the attach stream breaks mid-answer, then the delivery fails as runtime unavailable (the message is requeued) and the next one attaches again to the same container', async () => {
    const s = await service;
    const proxy = await startCuttableUnixProxy(local.kind === 'unix' ? local.socketPath : '');
    try {
      const { r } = runtime({}, { kind: 'unix', socketPath: proxy.socketPath });
      const spec = await specFor();
      await r.start(spec);
      const id = r.containerOf(spec.userId);
      s.set({ kind: 'hang', deltas: ['partial'] });
      const called = s.nextCall();
      const lost = r.deliver(spec.userId, delivery(), { onDelta: () => undefined }).catch((err: unknown) => err);
      await called;
      proxy.cut(); // the connection to the daemon drops; the container runs on
      expect(await lost).toBeInstanceOf(RuntimeUnavailableError);
      expect(inspect(id!).State.Running).toBe(true);
      s.set({ kind: 'answer', deltas: ['again'] });
      await expect(r.deliver(spec.userId, delivery())).resolves.toMatchObject({ content: 'again' });
      expect(r.containerOf(spec.userId)).toBe(id);
    } finally {
      await proxy.close();
    }
  });

  it('when the daemon is not there, then start fails with RuntimeUnavailableError and nothing is made', async () => {
    const { r } = runtime({ callTimeoutMs: 1_000, startTimeoutMs: 2_000 }, { kind: 'unix', socketPath: join(tmpdir(), `no-docker-${randomUUID()}.sock`) });
    const spec = await specFor();
    await expect(r.start(spec)).rejects.toBeInstanceOf(RuntimeUnavailableError);
    expect(r.isRunning(spec.userId)).toBe(false);
    expect(containersOf(spec.userId)).toEqual([]);
  });

  it.skipIf(!e.tls)('when DOCKER_HOST is tcp:// with DOCKER_TLS_VERIFY, then the runtime drives the engine over TLS with the CLI\'s ca.pem, cert.pem and key.pem; plain HTTP to that port is refused', async () => {
    const s = await service;
    const tls = dockerEndpoint({ host: e.tls!.host, tlsVerify: true, certPath: e.tls!.certPath });
    const { r } = runtime({}, tls);
    const spec = await specFor();
    await r.start(spec);
    expect(inspect(r.containerOf(spec.userId)!).State.Running).toBe(true);
    s.set({ kind: 'answer', deltas: ['over ', 'TLS'] });
    await expect(r.deliver(spec.userId, delivery(), { onDelta: () => undefined })).resolves.toMatchObject({ content: 'over TLS' });
    await r.stop(spec.userId);
    expect(containersOf(spec.userId)).toEqual([]);

    // plain HTTP to the TLS port gets no answer the runtime accepts
    const plain = runtime({ callTimeoutMs: 2_000, startTimeoutMs: 3_000 }, { ...(tls as Extract<DockerEndpoint, { kind: 'tcp' }>), tls: null }).r;
    const other = await specFor();
    await expect(plain.start(other)).rejects.toBeInstanceOf(RuntimeUnavailableError);
    expect(containersOf(other.userId)).toEqual([]);
  });
});
