import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RuntimeUnavailableError } from '../../../src/application/agents/runtime.errors.js';
import { AGENT_RUNTIME, type RuntimeExit, type RuntimeSpec } from '../../../src/application/ports/agent-runtime.port.js';
import { SwarmAgentRuntime, type SwarmRuntimeOptions } from '../../../src/adapters/outbound/agent-runtimes/swarm/swarm-agent-runtime.js';
import { dockerEndpoint } from '../../../src/adapters/outbound/agent-runtimes/docker/docker-endpoint.js';
import { CONNECT_UPGRADE } from '../../../src/agent-host/agent-host-transport.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { startChatService } from '../../support/agents/chat-service.js';
import { agentStatus, provisionedUser } from '../../support/agents/instances.js';
import { call } from '../../support/http-client.js';
import { startCuttableUnixProxy } from '../../support/agent-runtimes/cuttable-unix-proxy.js';
import { startTwoNodeSwarm, swarmSkipReason } from '../../support/agent-runtimes/two-node-swarm.js';
import { startStandInService } from '../../support/agent-runtimes/stand-in-service.js';
import { waitFor } from '../../support/polling.js';

/**
 * The swarm runtime on a REAL two-node Docker Swarm that this file builds once and tears down
 * (two-node-swarm.ts: two private dockerds, the second in its own network namespace, joined over a
 * veth pair; the agent-host image built offline and imported on both). Building one takes a good
 * part of a minute on a loaded 2-core machine: the two parts below share it, one after the other.
 *
 * SwarmAgentRuntime on its own: the tasks use their node's own network and dial this process's
 * connect-in listener on the veth address; their service calls come back on that connection and are
 * made from here to a stand-in service that checks the gateway token.
 *
 * Then AGENT_RUNTIME=swarm end to end, through the API: the worker provisions the user's instance as
 * a Swarm service, the program dials in to the worker's listener from whichever node Swarm chose,
 * chat is answered through it (the model call relayed on its connection, answered in this process),
 * and the lifecycle calls act on the service. The worker reaches the manager through a loopback unix
 * proxy, which one test takes down: the manager unreachable.
 *
 * Each part ends with the loss of node 2 (killed, then brought back and rejoined), so neither part
 * runs anything on node 2 after that. Without root the file skips and says why.
 */
const skip = swarmSkipReason();
const MB = 2 ** 20;
const GB = 1024 ** 3;
const TOKEN = `gw_${'s'.repeat(40)}`;
const delivery = (content = 'hi') => ({ agentId: randomUUID(), model: 'm', content, config: {}, memory: {}, history: [] });

describe.skipIf(skip)(`the swarm runtime on one real two-node swarm${skip ? ` (skipped: ${skip})` : ''}`, async () => {
  if (skip) return void it.skip(`needs root: ${skip}`, () => undefined);
  const logs: string[] = [];
  const swarm = await startTwoNodeSwarm((m) => logs.push(m));
  afterAll(() => swarm.stop(), 120_000);

  describe('SwarmAgentRuntime', () => {
    let service: Awaited<ReturnType<typeof startStandInService>>;
    const runtimes: SwarmAgentRuntime[] = [];

    beforeAll(async () => {
      service = await startStandInService(TOKEN);
    });
    afterAll(async () => {
      await Promise.allSettled(runtimes.map((r) => r.close()));
      await service?.close();
    }, 120_000);

    function runtime(options: Partial<SwarmRuntimeOptions> = {}) {
      const r = new SwarmAgentRuntime({
        endpoint: dockerEndpoint({ host: swarm.manager.host, tlsVerify: false, certPath: '' }),
        image: swarm.image,
        listen: { host: swarm.hostAddress, port: 0 },
        network: 'host',
        cpus: 0.5,
        cpuReservation: 0.05,
        testHooks: true,
        pollIntervalMs: 300,
        pingIntervalMs: 1_000,
        stopTimeoutMs: 2_000,
        startTimeoutMs: 60_000,
        log: (line) => logs.push(line),
        ...options,
      });
      runtimes.push(r);
      const exits: { userId: UserId; exit: RuntimeExit }[] = [];
      r.onExit((userId, exit) => exits.push({ userId, exit }));
      return { r, exits };
    }
    const specFor = (over: Partial<RuntimeSpec> = {}): RuntimeSpec => ({
      userId: randomUUID() as UserId,
      runtimeVersion: 'agent-host-1',
      ramCapBytes: 128 * MB,
      gatewayToken: TOKEN,
      serviceUrl: service.url,
      ...over,
    });
    const serviceOf = (userId: string) => JSON.parse(swarm.manager.docker('service', 'inspect', `agent-host-${userId}`))[0];
    const tasksOf = (userId: string) =>
      swarm.manager
        .docker('service', 'ps', '--no-trunc', '--format', '{{json .}}', `agent-host-${userId}`)
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { ID: string; Node: string; DesiredState: string; CurrentState: string });
    const runningTask = (userId: string) => {
      const id = swarm.manager.docker('service', 'ps', '-q', '--no-trunc', '--filter', 'desired-state=running', `agent-host-${userId}`).split('\n')[0]!;
      return JSON.parse(swarm.manager.docker('inspect', '--type', 'task', id))[0] as { ID: string; NodeID: string };
    };
    const nodeOf = (nodeId: string) => (nodeId === swarm.manager.id ? swarm.manager : swarm.worker);
    const containersOn = (node: typeof swarm.manager, userId: string, all = false) =>
      node.docker('ps', ...(all ? ['-a'] : []), '-q', '--filter', `label=agent-host.user=${userId}`).split('\n').filter(Boolean);

    it('when started, then one service of one replica runs the image with the plan\'s memory as limit and reservation, CPU limit and reservation, labels, restart policy and constraints, and its program answers over the connection it dialled', async () => {
      const { r } = runtime({ constraints: ['node.role!=nobody'] });
      const spec = specFor();
      await r.start(spec);
      expect(r.isRunning(spec.userId)).toBe(true);
      const s = serviceOf(spec.userId);
      expect(s.Spec.Mode).toEqual({ Replicated: { Replicas: 1 } });
      expect(s.Spec.Labels).toMatchObject({ 'agent-host.user': spec.userId, 'agent-host.version': 'agent-host-1' });
      expect(s.Spec.TaskTemplate.ContainerSpec.Image).toBe(swarm.image);
      expect(s.Spec.TaskTemplate.Resources).toEqual({
        Limits: { MemoryBytes: 128 * MB, NanoCPUs: 500_000_000, Pids: 512 },
        Reservations: { MemoryBytes: 128 * MB, NanoCPUs: 50_000_000 },
      });
      expect(s.Spec.TaskTemplate.RestartPolicy).toMatchObject({ Condition: 'any', MaxAttempts: 0 });
      expect(s.Spec.TaskTemplate.Placement.Constraints).toEqual(['node.role!=nobody']);

      // the container, on whichever node Swarm chose, has the limits; the gateway token is nowhere in it
      const task = runningTask(spec.userId);
      expect(r.epochOf(spec.userId)).toBe(task.ID);
      const node = nodeOf(task.NodeID);
      const [cid] = containersOn(node, spec.userId);
      const c = JSON.parse(node.docker('inspect', cid!))[0];
      expect(c.HostConfig).toMatchObject({ Memory: 128 * MB, NanoCpus: 500_000_000, ReadonlyRootfs: true });
      expect(c.Config.User).toBe('65534:65534');
      expect(JSON.stringify(c.Config.Env)).not.toContain(TOKEN);
      expect(node.docker('exec', cid!, '/usr/local/bin/node', '-e', 'process.stdout.write(require("fs").readFileSync("/run/secrets/agent-host-connect","utf8"))')).not.toContain(TOKEN);

      const reply = await r.deliver(spec.userId, delivery('hello swarm'));
      expect(reply).toMatchObject({ content: 'Hello', model: 'stand-in-model' });
      const call = service.calls.at(-1)!;
      expect(call.authorization).toBe(`Bearer ${TOKEN}`); // added by the relay here, never by the program
      expect(call.body.messages.at(-1)).toEqual({ role: 'user', content: 'hello swarm' });
    }, 90_000);

    it('when stopped, then the service is scaled to 0 and no task runs; started again, it is scaled to 1 under a new generation and answers; removed, the service and its secrets are gone', async () => {
      const { r } = runtime();
      const spec = specFor();
      await r.start(spec);
      const firstEpoch = r.epochOf(spec.userId)!;
      await r.stop(spec.userId);
      expect(r.isRunning(spec.userId)).toBe(false);
      expect(serviceOf(spec.userId).Spec.Mode.Replicated.Replicas).toBe(0);
      expect(tasksOf(spec.userId).filter((t) => t.CurrentState.startsWith('Running'))).toEqual([]);
      await expect(r.deliver(spec.userId, delivery())).rejects.toBeInstanceOf(RuntimeUnavailableError);

      await r.start(spec);
      expect(serviceOf(spec.userId).Spec.Mode.Replicated.Replicas).toBe(1);
      expect(r.epochOf(spec.userId)).not.toBe(firstEpoch);
      expect((await r.deliver(spec.userId, delivery())).content).toBe('Hello');
      expect(swarm.manager.docker('secret', 'ls', '-q', '--filter', `label=agent-host.user=${spec.userId}`).split('\n').filter(Boolean)).toHaveLength(1);

      await r.remove(spec.userId);
      expect(r.isRunning(spec.userId)).toBe(false);
      expect(() => swarm.manager.docker('service', 'inspect', `agent-host-${spec.userId}`)).toThrow();
      expect(swarm.manager.docker('secret', 'ls', '-q', '--filter', `label=agent-host.user=${spec.userId}`)).toBe('');
    }, 90_000);

    it('when asked for stats, then the figures come from the task\'s container cgroup', async () => {
      const { r } = runtime();
      const spec = specFor();
      await r.start(spec);
      const first = await r.stats(spec.userId);
      expect(first).not.toBeNull();
      expect(first!.rssBytes).toBeGreaterThan(1 * MB);
      expect(first!.rssBytes).toBeLessThan(128 * MB);
      expect(first!.memoryPercent).toBeGreaterThan(0);
      expect(first!.pids).toBeGreaterThan(0);
      expect((await r.stats(spec.userId))!.cpuPercent).toBeGreaterThanOrEqual(0);
      await r.stop(spec.userId);
      expect(await r.stats(spec.userId)).toBeNull();
    }, 90_000);

    it('when the program goes over its memory limit, then the kernel kills it, the exit is reported once as memory_cap and the service is scaled to 0', async () => {
      const { r, exits } = runtime();
      const spec = specFor({ ramCapBytes: 96 * MB });
      await r.start(spec);
      await r.debug(spec.userId, { type: 'allocate', bytes: 256 * MB }).catch(() => undefined);
      await waitFor(async () => exits.length, (n) => n > 0, 30_000);
      expect(exits).toEqual([{ userId: spec.userId, exit: expect.objectContaining({ reason: 'memory_cap', code: 137 }) }]);
      expect(r.isRunning(spec.userId)).toBe(false);
      await waitFor(async () => serviceOf(spec.userId).Spec.Mode.Replicated.Replicas, (n) => n === 0, 10_000);
    }, 90_000);

    it('when the manager is unreachable, then start fails as UPSTREAM_UNAVAILABLE (502) and nothing is made', async () => {
      const { r } = runtime({ endpoint: dockerEndpoint({ host: `unix:///tmp/no-manager-${randomUUID()}.sock`, tlsVerify: false, certPath: '' }) });
      const spec = specFor();
      const err = await r.start(spec).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RuntimeUnavailableError);
      expect((err as RuntimeUnavailableError).code).toBe('UPSTREAM_UNAVAILABLE');
      expect(r.isRunning(spec.userId)).toBe(false);
      expect(() => swarm.manager.docker('service', 'inspect', `agent-host-${spec.userId}`)).toThrow();
      expect(swarm.manager.docker('secret', 'ls', '-q', '--filter', `label=agent-host.user=${spec.userId}`)).toBe('');
    }, 30_000);

    it('when something dials in with an earlier generation\'s secret or as a task Swarm does not run, then it is refused 403 and the running connection stays', async () => {
      const { r } = runtime();
      const spec = specFor();
      await r.start(spec);
      const epoch = r.epochOf(spec.userId)!;
      const url = new URL(await r.connectUrl());
      const dial = (secret: string, task: string) =>
        new Promise<number>((resolve, reject) => {
          const req = request(url, { headers: { connection: 'Upgrade', upgrade: CONNECT_UPGRADE, authorization: `Bearer ${secret}`, 'x-agent-host-user': spec.userId, 'x-agent-host-task': task } });
          req.on('upgrade', (_res, socket) => (socket.destroy(), resolve(101)));
          req.on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0)));
          req.on('error', reject);
          req.end();
        });
      const before = r.refusedStale;
      expect(await dial('0123456789ab.not-the-secret', epoch)).toBe(403);
      expect(await dial('0123456789ab.not-the-secret', 'someothertaskid')).toBe(403);
      expect(r.refusedStale).toBe(before + 2);
      expect(r.epochOf(spec.userId)).toBe(epoch);
      expect((await r.deliver(spec.userId, delivery())).content).toBe('Hello');
    }, 90_000);

    describe('when the node running an instance is lost', () => {
      it('then the instance runs on the other node and answers again within 60 s: the message in flight is answered once, after the move; when the old node returns, its stale copy is refused and removed', async () => {
        const { r, exits } = runtime();
        const spec = specFor();
        // the instance must start on node 2 (the manager cannot be the one lost): node 1 drained for the start
        swarm.manager.docker('node', 'update', '--availability', 'drain', swarm.manager.id);
        try {
          await r.start(spec);
        } finally {
          swarm.manager.docker('node', 'update', '--availability', 'active', swarm.manager.id);
        }
        const oldEpoch = r.epochOf(spec.userId)!;
        expect(runningTask(spec.userId).NodeID).toBe(swarm.worker.id);
        expect(containersOn(swarm.worker, spec.userId)).toHaveLength(1);

        // a message in flight on node 2 when it is lost: its service call hangs
        service.set({ kind: 'hang', deltas: [] });
        const inFlight = service.nextCall();
        const first = r.deliver(spec.userId, delivery('in flight')).then(
          (reply) => ({ reply }),
          (err: unknown) => ({ err }),
        );
        const hung = await inFlight;
        service.set({ kind: 'answer', deltas: ['After ', 'the move'] });
        const lostAt = Date.now();
        swarm.killWorker();

        // the old copy's delivery fails once Swarm moved the task (it is never answered from there); the relayed call was dropped
        const outcome = await first;
        expect(outcome).toMatchObject({ err: expect.any(RuntimeUnavailableError) });
        await hung.clientLeft;
        // the mailbox delivers it again: it waits for the new epoch's connection and is answered there, once
        const again = await r.deliver(spec.userId, delivery('in flight'));
        expect(again.content).toBe('After the move');
        expect(Date.now() - lostAt).toBeLessThan(60_000);
        const newEpoch = r.epochOf(spec.userId)!;
        expect(newEpoch).not.toBe(oldEpoch);
        expect(runningTask(spec.userId).NodeID).toBe(swarm.manager.id);
        expect(service.calls.filter((c) => c.body.messages.at(-1)?.content === 'in flight')).toHaveLength(2); // the cut one, the answered one
        expect(exits).toEqual([]); // a move is not a crash

        // the stale copy on the lost node still runs; its dial-back was refused (it never reaches the service)
        await waitFor(async () => r.refusedStale, (n) => n > 0, 20_000);
        await swarm.restartWorker();
        await waitFor(async () => containersOn(swarm.worker, spec.userId), (ids) => ids.length === 0, 40_000, 500);
        expect(r.epochOf(spec.userId)).toBe(newEpoch);
        expect((await r.deliver(spec.userId, delivery('after the return'))).content).toBe('After the move');
        expect(exits).toEqual([]);
      }, 150_000);
    });
  });

  describe('agents on the swarm runtime', async () => {
    const proxy = await startCuttableUnixProxy(new URL(swarm.manager.host).pathname);
    const t = await startChatService({
      run: 'worker',
      env: {
        AGENT_RUNTIME: 'swarm',
        DOCKER_HOST: `unix://${proxy.socketPath}`,
        RUNTIME_DOCKER_IMAGE: swarm.image,
        AGENT_SWARM_CONNECT_LISTEN: `${swarm.hostAddress}:0`,
        AGENT_SWARM_NETWORK: 'host',
        AGENT_SWARM_CPU_RESERVATION: '0.05',
        RUNTIME_TEST_HOOKS: '1',
        RUNTIME_WATCHDOG_INTERVAL_MS: '500',
        RUNTIME_STOP_TIMEOUT_MS: '2000',
        INSTANCE_HEARTBEAT_MS: '500',
        AGENT_MAILBOX_POLL_MS: '300',
        RATE_LIMIT_INSTANCE: '100000',
      },
    });
    const owner = t.infra.pools.owner;
    const runtime = t.container.resolve(AGENT_RUNTIME) as SwarmAgentRuntime;
    afterAll(async () => {
      await runtime.close(); // its services scaled to 0 through the proxy, before the proxy goes
      await proxy.close();
    }, 120_000);
    const serviceOf = (userId: string) => JSON.parse(swarm.manager.docker('service', 'inspect', `agent-host-${userId}`))[0];
    const crashReasons = async (agentId: string) => (await owner.query(`select reason from agent_events where agent_id = $1 and kind = 'crashed' order by at`, [agentId])).rows.map((r) => r.reason as string);

    async function runningUser() {
      const { user, agent } = await provisionedUser(t.app, owner);
      expect(await waitFor(() => agentStatus(owner, agent.id), (s) => s !== 'provisioning', 60_000)).toBe('running');
      const send = (content: string) => call(t.app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId: agent.id, content } });
      const instance = (action: string) => call(t.app, { method: 'POST', url: `/api/instance/${user.id}/${action}`, headers: user.headers });
      return { user, agent, send, instance };
    }

    it('when a subscriber provisions an agent, then one Swarm service runs it with the plan\'s RAM as limit and reservation; chat is answered over the connection its program dialled; stats, stop (scale 0) and start (scale 1) act on it', async () => {
      const { user, send, instance } = await runningUser();
      const s = serviceOf(user.id);
      const ramGb = Number((await owner.query(`select ram_gb from instances where user_id = $1`, [user.id])).rows[0].ram_gb);
      expect(s.Spec.Mode).toEqual({ Replicated: { Replicas: 1 } });
      expect(s.Spec.TaskTemplate.Resources).toMatchObject({ Limits: { MemoryBytes: ramGb * GB }, Reservations: { MemoryBytes: ramGb * GB } });
      expect(s.Spec.Labels).toMatchObject({ 'agent-host.user': user.id });
      expect(runtime.epochOf(user.id as UserId)).toMatch(/^[a-z0-9]{25}$/);

      const chat = await send('Hello from the swarm');
      expect(chat.status).toBe(200);
      expect(chat.body.reply).toMatchObject({ role: 'assistant', content: 'Hello, world!' });
      expect(t.provider.lastRequest().body.messages.at(-1)).toEqual({ role: 'user', content: 'Hello from the swarm' });

      const stats = await call(t.app, { method: 'GET', url: `/api/instance/${user.id}/stats`, headers: { cookie: user.cookie } });
      expect(stats).toMatchObject({ status: 200, body: { status: 'running', memory: expect.stringMatching(/MB$/) } });
      expect(Number.parseFloat(stats.body.memory)).toBeGreaterThan(1);

      expect((await instance('stop')).status).toBe(200);
      expect(serviceOf(user.id).Spec.Mode.Replicated.Replicas).toBe(0);
      expect((await send('Anyone?')).status).toBe(409);
      expect((await instance('start')).status).toBe(200);
      expect(serviceOf(user.id).Spec.Mode.Replicated.Replicas).toBe(1);
      expect((await send('Back?')).body.reply).toMatchObject({ content: 'Hello, world!' });
    }, 120_000);

    it('when the program allocates past the instance\'s RAM, then the kernel kills it and the agent is in error for memory_cap, the service scaled to 0', async () => {
      const { user, agent, instance } = await runningUser();
      await owner.query(`update instances set ram_gb = 0.125 where user_id = $1`, [user.id]);
      expect((await instance('restart')).status).toBe(200);
      expect(serviceOf(user.id).Spec.TaskTemplate.Resources.Limits.MemoryBytes).toBe(128 * 2 ** 20);
      await runtime.debug(user.id as UserId, { type: 'allocate', bytes: 512 * 2 ** 20 }).catch(() => undefined);
      expect(await waitFor(() => agentStatus(owner, agent.id), (s) => s === 'error', 20_000, 100)).toBe('error');
      expect(await crashReasons(agent.id)).toEqual([`memory_cap: killed at its memory cap of ${128 * 2 ** 20} bytes`]);
      expect(serviceOf(user.id).Spec.Mode.Replicated.Replicas).toBe(0);
    }, 120_000);

    it('when the manager is unreachable, then start answers 502 and nothing is made or moved; reachable again, start works', async () => {
      const { user, send, instance } = await runningUser();
      expect((await instance('stop')).status).toBe(200);
      const secrets = swarm.manager.docker('secret', 'ls', '-q', '--filter', `label=agent-host.user=${user.id}`);
      proxy.down();
      try {
        const stopped = (await owner.query(`select status, started_at from instances where user_id = $1`, [user.id])).rows[0];
        const res = await instance('start');
        expect(res.status).toBe(502);
        expect(res.body).toMatchObject({ success: false, status: 'error', code: 'UPSTREAM_UNAVAILABLE' });
        expect((await owner.query(`select status, started_at from instances where user_id = $1`, [user.id])).rows[0]).toEqual(stopped);
        expect(serviceOf(user.id).Spec.Mode.Replicated.Replicas).toBe(0);
        expect(swarm.manager.docker('secret', 'ls', '-q', '--filter', `label=agent-host.user=${user.id}`)).toBe(secrets);
      } finally {
        proxy.up();
      }
      expect((await instance('start')).status).toBe(200);
      expect((await send('up again')).status).toBe(200);
    }, 120_000);

    // last: it kills node 2 (and brings it back)
    it('when the node running an instance is lost mid-answer, then the message is answered once, on the other node, within 60 s, the agent never in error; the returning node\'s stale copy is refused and stopped', async () => {
      swarm.manager.docker('node', 'update', '--availability', 'drain', swarm.manager.id);
      let running: Awaited<ReturnType<typeof runningUser>>;
      try {
        running = await runningUser(); // node 1 drained: Swarm puts the task on node 2
      } finally {
        swarm.manager.docker('node', 'update', '--availability', 'active', swarm.manager.id);
      }
      const { user, agent, send } = running;
      const taskNode = () => {
        const id = swarm.manager.docker('service', 'ps', '-q', '--no-trunc', '--filter', 'desired-state=running', `agent-host-${user.id}`).split('\n')[0]!;
        return (JSON.parse(swarm.manager.docker('inspect', '--type', 'task', id))[0] as { NodeID: string }).NodeID;
      };
      expect(taskNode()).toBe(swarm.worker.id);
      const oldEpoch = runtime.epochOf(user.id as UserId);

      t.provider.setBehaviour({ kind: 'stall' });
      const before = t.provider.requests.length;
      const sending = send('across the loss');
      await waitFor(async () => t.provider.requests.length, (n) => n > before, 15_000);
      t.provider.setBehaviour({ kind: 'reply', chunks: ['Answered ', 'elsewhere.'] });
      const lostAt = Date.now();
      swarm.killWorker(); // its container runs on, cut off from the manager

      const messageId = (await owner.query(`select id from agent_messages where agent_id = $1 and content = 'across the loss'`, [agent.id])).rows[0]!.id;
      const answered = await waitFor(
        async () => (await owner.query(`select status, reply_message_id from agent_mailbox where message_id = $1`, [messageId])).rows[0],
        (r) => r?.status === 'answered',
        60_000,
        250,
      );
      expect(Date.now() - lostAt).toBeLessThan(60_000);
      expect((await owner.query(`select content from agent_messages where id = $1`, [answered.reply_message_id])).rows[0]).toEqual({ content: 'Answered elsewhere.' });
      // answered once: one assistant message in the agent's history (the first answer, cut off with its node, was never stored)
      expect((await owner.query(`select count(*)::int as n from agent_messages where agent_id = $1 and role = 'assistant'`, [agent.id])).rows[0].n).toBe(1);
      expect([200, 202]).toContain((await sending).status);
      expect(await agentStatus(owner, agent.id)).toBe('running');
      expect(await crashReasons(agent.id)).toEqual([]);
      expect(runtime.epochOf(user.id as UserId)).not.toBe(oldEpoch);
      expect(taskNode()).toBe(swarm.manager.id);
      await waitFor(async () => runtime.refusedStale, (n) => n > 0, 20_000); // the old copy dialled back and was refused

      await swarm.restartWorker();
      await waitFor(async () => swarm.worker.docker('ps', '-q', '--filter', `label=agent-host.user=${user.id}`), (ids) => ids === '', 40_000, 500);
      expect((await send('after the return')).body.reply).toMatchObject({ content: 'Answered elsewhere.' });
    }, 150_000);
  });
});
