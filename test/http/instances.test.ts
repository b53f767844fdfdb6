import { describe, expect, it } from 'vitest';
import { AGENT_RUNTIME } from '../../src/application/ports/agent-runtime.port.js';
import { startWorker } from '../../src/bootstrap/worker.js';
import type { UserId } from '../../src/domain/shared/ids.js';
import { agentHostPid, agentStatus, provisionedUser } from '../support/agents/instances.js';
import { waitFor } from '../support/polling.js';
import { call, signUpAndIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * /api/instance/:userId and /api/agents/:id/stats on the whole service in one process
 * (SERVICE_ROLE=all): the HTTP side sends each call through the command table and this same
 * process's worker side answers it, with the real ProcessAgentRuntime.
 */
const t = await startTestApp({ env: { RUNTIME_RUN_AS_USER: '', RATE_LIMIT_AGENTS: '100000', RATE_LIMIT_INSTANCE: '100000', INSTANCE_HEARTBEAT_MS: '500' } });
await startWorker(t.container, t.infra.queue, t.infra.afterQueueStops);
const { app } = t;
const owner = t.infra.pools.owner;
const runtime = t.container.resolve(AGENT_RUNTIME);

async function runningUser() {
  const u = await provisionedUser(app, owner);
  expect(await waitFor(() => agentStatus(owner, u.agent.id), (s) => s !== 'provisioning')).toBe('running');
  return u;
}
const post = (headers: Record<string, string>, url: string) => call(app, { method: 'POST', url, headers });
const get = (headers: Record<string, string>, url: string) => call(app, { method: 'GET', url, headers: { cookie: headers.cookie! } });
const events = async (agentId: string) => (await owner.query(`select kind, reason from agent_events where agent_id = $1 order by id`, [agentId])).rows;
const tokenHash = async (userId: string) => (await owner.query(`select gateway_token_hash from instances where user_id = $1`, [userId])).rows[0].gateway_token_hash;

describe('/api/instance/:userId', () => {
  it('when the owner reads it, then details, live stats and a stable token answer; the lease is this worker\'s', async () => {
    const { user } = await runningUser();
    const details = await get(user.headers, `/api/instance/${user.id}`);
    expect(details.status).toBe(200);
    expect(details.body).toEqual({
      userId: user.id, status: 'running', startedAt: expect.any(String), subdomain: expect.stringMatching(/^u-/),
      url: `http://127.0.0.1:3000/api/instance/${user.id}`, plan: 'solo', runtimeVersion: expect.any(String),
    });
    const stats = await get(user.headers, `/api/instance/${user.id}/stats`);
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ userId: user.id, cpu: expect.stringMatching(/%$/), memory: expect.stringMatching(/MB$/), status: 'running', plan: 'solo' });
    const a = await get(user.headers, `/api/instance/${user.id}/token`);
    const b = await get(user.headers, `/api/instance/${user.id}/token`);
    expect(a.body.token).toMatch(/^gw_/);
    expect(b.body).toEqual(a.body);
    const lease = (await owner.query(`select worker_id, expires_at > now() as live from instance_leases where user_id = $1`, [user.id])).rows;
    expect(lease).toEqual([{ worker_id: expect.any(String), live: true }]);
  }, 30_000);

  it('when stop, start, restart, update and reset-memory are called, then each answers the spec body and moves the instance and its agents', async () => {
    const { user, agent } = await runningUser();
    const base = `/api/instance/${user.id}`;
    expect(await post(user.headers, `${base}/stop`)).toMatchObject({ status: 200, body: { success: true, status: 'stopped' } });
    expect(await agentStatus(owner, agent.id)).toBe('stopped');
    expect(runtime.isRunning(user.id as UserId)).toBe(false);
    expect((await get(user.headers, `${base}/stats`)).body).toMatchObject({ cpu: 'N/A', memory: 'N/A', status: 'stopped' });
    expect(await post(user.headers, `${base}/start`)).toMatchObject({ status: 200, body: { success: true, status: 'running' } });
    expect(await agentStatus(owner, agent.id)).toBe('running');
    expect(runtime.isRunning(user.id as UserId)).toBe(true);
    const pid = agentHostPid(user.id);
    expect(await post(user.headers, `${base}/restart`)).toMatchObject({ status: 200, body: { success: true, status: 'running' } });
    expect(agentHostPid(user.id)).not.toBe(pid);
    expect(await post(user.headers, `${base}/update`)).toMatchObject({ status: 200, body: { success: true, status: 'running' } });
    const reset = await post(user.headers, `${base}/reset-memory`);
    expect(reset).toMatchObject({ status: 200, body: { success: true, message: expect.any(String) } });
    expect((await events(agent.id)).map((e) => e.kind)).toEqual(['provisioned', 'stopped', 'started', 'started', 'started']);
  }, 60_000);

  it('when reset-memory is called, then the stored memory of every agent of the instance is cleared and other users\' memory stays', async () => {
    const { user, agent } = await runningUser();
    const second = (await owner.query(`insert into agents (user_id, name, model, status) values ($1, 'Second', 'm', 'stopped') returning id`, [user.id])).rows[0].id;
    // another user's agent with memory (no runtime needed for it)
    const other = await signUpAndIn(app);
    const otherAgent = (await owner.query(`insert into agents (user_id, name, model, status) values ($1, 'Other', 'm', 'stopped') returning id`, [other.id])).rows[0].id;
    for (const [agentId, userId] of [[agent.id, user.id], [second, user.id], [otherAgent, other.id]]) {
      await owner.query(`insert into agent_memory (agent_id, user_id, key, value) values ($1, $2, 'k', '"v"'), ($1, $2, 'k2', '2')`, [agentId, userId]);
    }
    expect((await get(user.headers, `/api/memory?agentId=${agent.id}`)).body.count).toBe(2);

    const reset = await post(user.headers, `/api/instance/${user.id}/reset-memory`);
    expect(reset).toMatchObject({ status: 200, body: { success: true, message: expect.any(String) } });
    expect((await get(user.headers, `/api/memory?agentId=${agent.id}`)).body).toEqual({ memory: {}, agentId: agent.id, count: 0, lastUpdated: null });
    const left = (await owner.query(`select agent_id, key from agent_memory where agent_id = any($1::uuid[]) order by agent_id, key`, [[agent.id, second, otherAgent]])).rows;
    expect(left).toEqual([{ agent_id: otherAgent, key: 'k' }, { agent_id: otherAgent, key: 'k2' }]);
    // another user cannot reset this one's memory
    await owner.query(`insert into agent_memory (agent_id, user_id, key, value) values ($1, $2, 'k', '1')`, [agent.id, user.id]);
    expect((await post(other.headers, `/api/instance/${user.id}/reset-memory`)).status).toBe(403);
    expect((await get(user.headers, `/api/memory?agentId=${agent.id}`)).body.count).toBe(1);
  }, 30_000);

  it('when another user, nobody or a malformed id calls, then 403, 401 and 400 answer the failure body and nothing changes', async () => {
    const { user, agent } = await runningUser();
    const other = await signUpAndIn(app);
    for (const path of ['stop', 'restart', 'repair', 'reset-memory']) {
      const res = await post(other.headers, `/api/instance/${user.id}/${path}`);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, status: 'error', code: 'INSTANCE_FORBIDDEN', error: expect.any(String) });
    }
    for (const path of ['', '/stats', '/token']) expect((await get(other.headers, `/api/instance/${user.id}${path}`)).status).toBe(403);
    const anonymous = await call(app, { method: 'POST', url: `/api/instance/${user.id}/stop` });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ success: false, status: 'error', code: 'AUTH_REQUIRED' });
    const malformed = await post(user.headers, '/api/instance/not-a-uuid/stop');
    expect(malformed).toMatchObject({ status: 400, body: { success: false, status: 'error', code: 'VALIDATION_ERROR' } });
    // a user without an instance yet: 404 with the failure body
    expect(await post(other.headers, `/api/instance/${other.id}/start`)).toMatchObject({ status: 404, body: { success: false, status: 'error' } });
    expect(await agentStatus(owner, agent.id)).toBe('running');
    expect(runtime.isRunning(user.id as UserId)).toBe(true);
    // another user's agent stats: 404, as every other agent resource
    expect((await get(other.headers, `/api/agents/${agent.id}/stats`)).status).toBe(404);
  }, 30_000);

  it('when the runtime fails to start, then the call answers 502 with the failure body and the stored state is unchanged', async () => {
    // A service of its own (its own database, its own worker) whose runtime never becomes ready in time.
    const f = await startTestApp({ env: { RUNTIME_RUN_AS_USER: '', RUNTIME_START_TIMEOUT_MS: '1', INSTANCE_HEARTBEAT_MS: '500' } });
    await startWorker(f.container, f.infra.queue, f.infra.afterQueueStops);
    const fOwner = f.infra.pools.owner;
    const { user, agent } = await provisionedUser(f.app, fOwner);
    expect(await waitFor(() => agentStatus(fOwner, agent.id), (s) => s !== 'provisioning')).toBe('error');
    const before = (await fOwner.query(`select status, started_at from instances where user_id = $1`, [user.id])).rows[0];
    const res = await call(f.app, { method: 'POST', url: `/api/instance/${user.id}/start`, headers: user.headers });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, status: 'error', code: 'UPSTREAM_UNAVAILABLE' });
    expect(await agentStatus(fOwner, agent.id)).toBe('error');
    expect((await fOwner.query(`select status, started_at from instances where user_id = $1`, [user.id])).rows[0]).toEqual(before);
  }, 60_000);
});

describe('crash and repair', () => {
  it('when the runtime is killed from outside, then within 5 s the agent is error with a crashed event; repair brings it back with a new token', async () => {
    const { user, agent } = await runningUser();
    const pid = agentHostPid(user.id);
    expect(pid).not.toBeNull();
    const tokenBefore = (await get(user.headers, `/api/instance/${user.id}/token`)).body.token;
    const hashBefore = await tokenHash(user.id);
    process.kill(pid!, 'SIGKILL');
    const killedAt = Date.now();
    const seen = await waitFor(async () => (await get(user.headers, `/api/agents/${agent.id}`)).body.agent.status, (s) => s === 'error', 5_000);
    expect(seen).toBe('error');
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    expect((await events(agent.id)).at(-1)).toEqual({ kind: 'crashed', reason: expect.stringMatching(/^crashed: /) });
    expect((await get(user.headers, `/api/instance/${user.id}`)).body.status).toBe('error');

    const repaired = await post(user.headers, `/api/instance/${user.id}/repair`);
    expect(repaired).toMatchObject({ status: 200, body: { success: true, message: expect.any(String) } });
    expect(await agentStatus(owner, agent.id)).toBe('running');
    expect(runtime.isRunning(user.id as UserId)).toBe(true);
    expect(agentHostPid(user.id)).not.toBe(pid);
    const tokenAfter = (await get(user.headers, `/api/instance/${user.id}/token`)).body.token;
    expect(tokenAfter).toMatch(/^gw_/);
    expect(tokenAfter).not.toBe(tokenBefore);
    expect(await tokenHash(user.id)).not.toEqual(hashBefore);
    expect((await events(agent.id)).at(-1)).toMatchObject({ kind: 'repaired' });
  }, 60_000);
});

describe('GET /api/agents/:id/stats', () => {
  it('when the runtime answers, then the live variant with runtime figures and message figures from the events', async () => {
    const { user, agent } = await runningUser();
    await owner.query(
      `insert into agent_events (agent_id, user_id, kind, duration_ms) values ($1, $2, 'message_answered', 100), ($1, $2, 'message_answered', 300), ($1, $2, 'message_failed', 50)`,
      [agent.id, user.id],
    );
    const res = await get(user.headers, `/api/agents/${agent.id}/stats`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      stats: {
        agentId: agent.id, cpu: expect.stringMatching(/%$/), memory: expect.stringMatching(/MB$/), memoryPercent: expect.stringMatching(/%$/),
        network: 'N/A', uptime: expect.any(Number), uptimeFormatted: expect.any(String), status: 'running', pids: expect.stringMatching(/^\d+$/),
        messagesProcessed: 3, messagesPerHour: 3, averageResponseTime: 200, successRate: '66.7%', errorRate: '33.3%',
      },
    });
  }, 30_000);

  it('when no worker answers, then the mock variant with the stored figures', async () => {
    const api = await startTestApp({ databaseUrl: t.databaseUrl, env: { INSTANCE_COMMAND_TIMEOUT_MS: '300' } });
    const { user, agent } = await runningUser();
    // a lease held by a worker that is gone but not yet expired: nobody answers
    // the agent reads running before its worker's lease is necessarily written: wait for the lease, then hand it to the gone worker
    await expect.poll(async () => (await owner.query(`select 1 from instance_leases where user_id = $1`, [user.id])).rowCount).toBe(1);
    const moved = await owner.query(`update instance_leases set worker_id = 'gone', expires_at = now() + interval '1 hour' where user_id = $1`, [user.id]);
    expect(moved.rowCount).toBe(1);
    const res = await call(api.app, { method: 'GET', url: `/api/agents/${agent.id}/stats`, headers: { cookie: user.cookie } });
    expect(res.body).toEqual({
      status: 'mock',
      stats: { agentId: agent.id, messagesProcessed: 0, messagesPerHour: 0, averageResponseTime: 0, uptime: 0, successRate: 'N/A', errorRate: 'N/A', timestamp: expect.any(String) },
    });
    // and a lifecycle call times out with 502, nothing changed
    const stop = await call(api.app, { method: 'POST', url: `/api/instance/${user.id}/stop`, headers: user.headers });
    expect(stop).toMatchObject({ status: 502, body: { success: false, status: 'error', code: 'UPSTREAM_UNAVAILABLE' } });
    expect(await agentStatus(owner, agent.id)).toBe('running');
    // the stop is withdrawn; only the stop is counted, since the minute's stats sampler sends its own command to every running instance
    expect((await owner.query(`select count(*)::int as n from instance_commands where user_id = $1 and command = 'stop'`, [user.id])).rows[0].n).toBe(0);
  }, 30_000);
});
