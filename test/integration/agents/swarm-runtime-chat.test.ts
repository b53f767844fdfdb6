import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_RUNTIME } from '../../../src/application/ports/agent-runtime.port.js';
import type { SwarmAgentRuntime } from '../../../src/adapters/outbound/agent-runtimes/swarm/swarm-agent-runtime.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { startChatService } from '../../support/agents/chat-service.js';
import { agentStatus, provisionedUser } from '../../support/agents/instances.js';
import { waitFor } from '../../support/polling.js';
import { call } from '../../support/http-client.js';
import { startCuttableUnixProxy } from '../../support/agent-runtimes/cuttable-unix-proxy.js';
import { startTwoNodeSwarm, swarmSkipReason } from '../../support/agent-runtimes/two-node-swarm.js';

/**
 * AGENT_RUNTIME=swarm end to end on a REAL two-node swarm this file builds (two-node-swarm.ts),
 * through the API: the worker provisions the user's instance as a Swarm service, the program dials
 * in to the worker's listener from whichever node Swarm chose, chat is answered through it (the
 * model call relayed on its connection, answered in this process), and the lifecycle calls act on
 * the service. The worker reaches the manager through a loopback unix proxy, which the last test
 * takes down: the manager unreachable.
 */
const skip = swarmSkipReason();
const GB = 1024 ** 3;

describe.skipIf(skip)(`agents on the swarm runtime${skip ? ` (skipped: ${skip})` : ''}`, async () => {
  if (skip) return void it.skip(`needs root: ${skip}`, () => undefined);
  const swarm = await startTwoNodeSwarm();
  afterAll(() => swarm.stop(), 120_000);
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
    // the crash is recorded as soon as it is seen; the scale to 0 is the runtime's next Engine call
    expect(await waitFor(() => serviceOf(user.id).Spec.Mode.Replicated.Replicas, (n) => n === 0, 20_000, 200)).toBe(0);
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
