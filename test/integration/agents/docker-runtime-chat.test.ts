import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { AGENT_RUNTIME } from '../../../src/application/ports/agent-runtime.port.js';
import type { DockerAgentRuntime } from '../../../src/adapters/outbound/agent-runtimes/docker/docker-agent-runtime.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { startChatService } from '../../support/agents/chat-service.js';
import { agentStatus, provisionedUser } from '../../support/agents/instances.js';
import { waitFor } from '../../support/polling.js';
import { call } from '../../support/http-client.js';
import { startCuttableUnixProxy } from '../../support/agent-runtimes/cuttable-unix-proxy.js';
import { dockerEngine, type DockerTestEngine } from '../../support/agent-runtimes/docker-engine.js';

/**
 * AGENT_RUNTIME=docker end to end on a real Docker Engine (the run's private dockerd, or
 * DOCKER_HOST), through the API: the worker provisions the user's instance as a container of the
 * image built offline, chat reaches the program on the attach stream and the program's service
 * call comes back on it (the container has no network), and the lifecycle calls, stats and faults
 * act on real containers. The worker reaches the daemon through a loopback unix proxy, which only
 * the last test uses: to break an attach stream mid-answer and to make the daemon unreachable.
 */
const engine = await dockerEngine();
const skip = 'skip' in engine ? engine.skip : null;
const GB = 1024 ** 3;

describe.skipIf(skip)(`agents on the docker runtime${skip ? ` (skipped: ${skip})` : ''}`, async () => {
  // nothing is started without an engine; one skipped entry carries the reason into the report
  if (skip) return void it.skip(`needs a Docker Engine: ${skip}`, () => undefined);
  const e = engine as DockerTestEngine;
  const proxy = await startCuttableUnixProxy(new URL(e.host).pathname);
  const t = await startChatService({
    run: 'worker',
    env: {
      AGENT_RUNTIME: 'docker',
      DOCKER_HOST: `unix://${proxy.socketPath}`,
      RUNTIME_DOCKER_IMAGE: e.image,
      RUNTIME_TEST_HOOKS: '1',
      RUNTIME_WATCHDOG_INTERVAL_MS: '500',
      INSTANCE_HEARTBEAT_MS: '500',
      AGENT_MAILBOX_POLL_MS: '300',
      RATE_LIMIT_INSTANCE: '100000',
    },
  });
  const { provider } = t;
  const owner = t.infra.pools.owner;
  const runtime = t.container.resolve(AGENT_RUNTIME) as DockerAgentRuntime;
  afterAll(async () => {
    await runtime.close(); // its containers removed through the proxy, before the proxy goes
    await proxy.close();
  });
  const appUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const containersOf = (userId: string) => e.docker('ps', '-aq', '--no-trunc', '--filter', `label=agent-host.user=${userId}`).split('\n').filter(Boolean);
  const inspect = (id: string) => JSON.parse(e.docker('inspect', id))[0];
  const crashReasons = async (agentId: string) => (await owner.query(`select reason from agent_events where agent_id = $1 and kind = 'crashed' order by at`, [agentId])).rows.map((r) => r.reason as string);

  async function runningUser() {
    const { user, agent } = await provisionedUser(t.app, owner);
    expect(await waitFor(() => agentStatus(owner, agent.id), (s) => s !== 'provisioning', 30_000)).toBe('running');
    const send = (content: string) => call(t.app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId: agent.id, content } });
    const instance = (action: string) => call(t.app, { method: 'POST', url: `/api/instance/${user.id}/${action}`, headers: user.headers });
    return { user, agent, send, instance };
  }

  it('when a subscriber provisions an agent, then one container runs with the plan\'s RAM, no network and the owner\'s label; chat streams over attach; stats, reset-memory, restart, stop, start and repair act on it', async () => {
    const { user, agent, send, instance } = await runningUser();
    const [id] = containersOf(user.id);
    expect(containersOf(user.id)).toHaveLength(1);
    const c = inspect(id!);
    const ramGb = Number((await owner.query(`select ram_gb from instances where user_id = $1`, [user.id])).rows[0].ram_gb);
    expect(c.HostConfig).toMatchObject({ Memory: ramGb * GB, MemorySwap: ramGb * GB, NetworkMode: 'none', ReadonlyRootfs: true, CapDrop: ['ALL'], PidsLimit: 512, NanoCpus: 1e9 });
    expect(c.Config).toMatchObject({ User: '65534:65534', Image: e.image, Labels: { 'agent-host.user': user.id } });
    expect(c.State.Running).toBe(true);

    // the owner's live view: the answer's pieces arrive as deltas before the stored reply
    const ws = new WebSocket(`${appUrl.replace(/^http/, 'ws')}/api/agents/${agent.id}/ws`, { headers: { cookie: user.cookie, origin: appUrl } });
    const frames: any[] = [];
    ws.on('message', (data: Buffer) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    // pieces are announced best effort and dropped once the reply is stored; spaced out, they
    // reach the socket before the reply even on a loaded machine
    provider.setBehaviour({ kind: 'reply', chunkDelayMs: 150 });
    try {
      const chat = await send('Hello from outside');
      expect(chat.status).toBe(200);
      expect(chat.body.reply).toMatchObject({ agentId: agent.id, role: 'assistant', content: 'Hello, world!' });
      expect(provider.lastRequest().body.messages.at(-1)).toEqual({ role: 'user', content: 'Hello from outside' });
      expect(provider.lastRequest().body.stream).toBe(true); // a live view is open: streamed through the container
      await waitFor(async () => frames, (f) => f.some((x) => x.type === 'message' && x.message.role === 'assistant'));
      const deltas = frames.filter((f) => f.type === 'delta').map((f) => f.content as string);
      expect(deltas.length).toBeGreaterThan(0);
      expect('Hello, world!'.startsWith(deltas.join(''))).toBe(true);
    } finally {
      provider.setBehaviour({ kind: 'reply' });
      ws.close();
    }
    // without a live view: the whole answer
    expect((await send('And again')).body.reply).toMatchObject({ content: 'Hello, world!' });

    const stats = await call(t.app, { method: 'GET', url: `/api/instance/${user.id}/stats`, headers: { cookie: user.cookie } });
    expect(stats).toMatchObject({ status: 200, body: { status: 'running', cpu: expect.stringMatching(/%$/), memory: expect.stringMatching(/MB$/) } });
    expect(Number.parseFloat(stats.body.memory)).toBeGreaterThan(1); // the cgroup's count of a running node program

    expect(await runtime.debug(user.id as UserId, { type: 'state' })).toBe(1);
    expect((await instance('reset-memory')).status).toBe(200);
    expect(await runtime.debug(user.id as UserId, { type: 'state' })).toBe(0);
    expect(containersOf(user.id)).toEqual([id]); // the same container

    expect((await instance('restart')).status).toBe(200);
    const [restarted] = containersOf(user.id);
    expect(containersOf(user.id)).toHaveLength(1);
    expect(restarted).not.toBe(id);
    expect((await send('Still there?')).body.reply).toMatchObject({ content: 'Hello, world!' });

    expect((await instance('stop')).status).toBe(200);
    expect(containersOf(user.id)).toEqual([]);
    expect((await send('Anyone?')).status).toBe(409);

    expect((await instance('start')).status).toBe(200);
    expect(containersOf(user.id)).toHaveLength(1);
    expect(await agentStatus(owner, agent.id)).toBe('running');
    expect((await instance('repair')).status).toBe(200);
    expect(containersOf(user.id)).toHaveLength(1);
    expect((await send('Back?')).status).toBe(200);
  }, 120_000);

  it('when the container is killed from outside, then within 5 s the agent is in error with a crashed event; repair runs one new container', async () => {
    const { user, agent, send, instance } = await runningUser();
    const [id] = containersOf(user.id);
    e.docker('kill', id!);
    const killedAt = Date.now();
    expect(await waitFor(() => agentStatus(owner, agent.id), (s) => s === 'error', 5_000, 50)).toBe('error');
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    expect(await crashReasons(agent.id)).toEqual([expect.stringMatching(/^crashed: container exited with code 137/)]);
    expect(containersOf(user.id)).toEqual([]);
    expect((await instance('repair')).status).toBe(200);
    expect(containersOf(user.id)).toHaveLength(1);
    expect((await send('repaired?')).status).toBe(200);
  }, 60_000);

  it('when the program allocates past the instance\'s RAM, then the kernel OOM-kills the container and the agent is in error for memory_cap, not a silent stop', async () => {
    const { user, agent, instance } = await runningUser();
    // a plan of 128 MiB (the instance records its plan's RAM): restarted, the container gets that cap
    await owner.query(`update instances set ram_gb = 0.125 where user_id = $1`, [user.id]);
    expect((await instance('restart')).status).toBe(200);
    const [id] = containersOf(user.id);
    expect(inspect(id!).HostConfig.Memory).toBe(128 * 2 ** 20);
    await runtime.debug(user.id as UserId, { type: 'allocate', bytes: 512 * 2 ** 20 }).catch(() => undefined); // test hook (RUNTIME_TEST_HOOKS=1)
    expect(await waitFor(() => agentStatus(owner, agent.id), (s) => s === 'error', 5_000, 50)).toBe('error');
    expect(await crashReasons(agent.id)).toEqual([`memory_cap: killed at its memory cap of ${128 * 2 ** 20} bytes`]);
  }, 60_000);

  it('when the attach stream breaks mid-answer, then the message is requeued and answered on the running container; with the daemon unreachable, start answers 502 and nothing is made', async () => {
    const { user, agent, send, instance } = await runningUser();
    const [id] = containersOf(user.id);
    provider.setBehaviour({ kind: 'stall' });
    const before = provider.requests.length;
    const sending = send('cut me off'); // answered when the reply comes, whichever delivery gives it
    await waitFor(async () => provider.requests.length, (n) => n > before, 15_000);
    proxy.cut(); // the worker's connection to the daemon drops; the container runs on
    provider.setBehaviour({ kind: 'reply', chunks: ['Answered ', 'after all.'] });
    const messageId = (await owner.query(`select id from agent_messages where agent_id = $1 and content = 'cut me off'`, [agent.id])).rows[0]!.id;
    const answered = await waitFor(
      async () => (await owner.query(`select status, reply_message_id from agent_mailbox where message_id = $1`, [messageId])).rows[0],
      (r) => r?.status === 'answered',
      20_000,
    );
    const reply = (await owner.query(`select content from agent_messages where id = $1`, [answered.reply_message_id])).rows[0];
    expect(reply).toEqual({ content: 'Answered after all.' });
    expect([200, 202]).toContain((await sending).status);
    expect(containersOf(user.id)).toEqual([id]); // re-attached, not restarted
    expect(await agentStatus(owner, agent.id)).toBe('running');

    // the daemon unreachable: stop works on the stored state, start answers 502, nothing is made or moved
    expect((await instance('stop')).status).toBe(200);
    proxy.down();
    try {
      const stopped = (await owner.query(`select status, started_at from instances where user_id = $1`, [user.id])).rows[0];
      const res = await instance('start');
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ success: false, status: 'error', code: 'UPSTREAM_UNAVAILABLE' });
      expect((await owner.query(`select status, started_at from instances where user_id = $1`, [user.id])).rows[0]).toEqual(stopped);
      expect(containersOf(user.id)).toEqual([]);
    } finally {
      proxy.up();
    }
    expect((await instance('start')).status).toBe(200);
    expect((await send('up again')).status).toBe(200);
  }, 90_000);
});

