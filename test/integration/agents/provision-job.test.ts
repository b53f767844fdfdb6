import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import type { DependencyContainer } from 'tsyringe';
import { describe, expect, it } from 'vitest';
import { provisionAgentHandler } from '../../../src/adapters/inbound/jobs/provision-agent.handler.js';
import { CompleteProvisioning, gatewayTokenContext } from '../../../src/application/agents/complete-provisioning.use-case.js';
import { AGENT_RUNTIME } from '../../../src/application/ports/agent-runtime.port.js';
import { SECRET_BOX } from '../../../src/application/ports/secret-box.port.js';
import { RUNTIME_VERSION } from '../../../src/bootstrap/create-agent-runtime.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { subscribe } from '../../support/ai/chat-fixtures.js';
import { call, signUpAndIn } from '../../support/http-client.js';
import { waitFor } from '../../support/polling.js';
import { startTestApp } from '../../support/test-app.js';

/**
 * The provision job run in-process against the real ProcessAgentRuntime (it forks the agent-host
 * program): the worker side of POST /api/agents/provision. The HTTP side is test/http/agents.test.ts.
 */

// RUNTIME_RUN_AS_USER empty: the programs run as the test's user (the suite may run as root)
const ok = await startTestApp({ env: { RUNTIME_RUN_AS_USER: '', RATE_LIMIT_AGENTS: '100000' } });
const failing = await startTestApp({ env: { RUNTIME_RUN_AS_USER: '', RUNTIME_START_TIMEOUT_MS: '1' } });

/** Provisions through the API and returns the agent and the job data that was committed with it. */
async function provisioned(app: FastifyInstance, owner: Pool, plan = 'solo', existingUser?: Awaited<ReturnType<typeof signUpAndIn>>) {
  const user = existingUser ?? (await signUpAndIn(app));
  if (!existingUser) await subscribe(owner, user.id, plan);
  const res = await call(app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: 'Worker test' } });
  expect(res.status).toBe(201);
  const agent = res.body.agent;
  const job = (await owner.query(`select data from pgboss.job where name = 'provision' and data->>'agentId' = $1`, [agent.id])).rows[0]!.data;
  const { kind, ...data } = job;
  expect(kind).toBe('agent.provision');
  return { user, agent, data };
}

const runJob = (c: DependencyContainer, data: Record<string, unknown>) => provisionAgentHandler(c.resolve(CompleteProvisioning))(data);

async function state(owner: Pool, agentId: string, userId: string) {
  const agent = (await owner.query(`select status from agents where id = $1`, [agentId])).rows[0];
  const events = (await owner.query(`select kind, duration_ms, reason from agent_events where agent_id = $1 order by id`, [agentId])).rows;
  const instance = (await owner.query(`select * from instances where user_id = $1`, [userId])).rows[0];
  return { status: agent.status, events, instance };
}

describe('the provision job', () => {
  it('when it runs for a provisioning agent, then the instance is created, the runtime process runs, and the agent is running with a provisioned event', async () => {
    const { app, infra, container } = ok;
    const { user, agent, data } = await provisioned(app, infra.pools.owner, 'solo');
    await runJob(container, data);
    const s = await state(infra.pools.owner, agent.id, user.id);
    expect(s.status).toBe('running');
    expect(s.events).toEqual([{ kind: 'provisioned', duration_ms: expect.any(Number), reason: null }]);
    expect(s.instance).toMatchObject({
      status: 'running',
      started_at: expect.any(Date),
      subdomain: `u-${user.id.replace(/-/g, '').slice(0, 16)}`,
      url: `http://127.0.0.1:3000/api/instance/${user.id}`,
      plan: 'solo',
      runtime_version: RUNTIME_VERSION,
    });
    const runtime = container.resolve(AGENT_RUNTIME);
    expect(runtime.isRunning(user.id as UserId)).toBe(true);
    const stats = await runtime.stats(user.id as UserId);
    expect(stats?.pids).toBeGreaterThanOrEqual(1);
    expect(stats?.rssBytes).toBeGreaterThan(0);
    // the gateway token is stored only sealed and as its sha256
    const token = container.resolve(SECRET_BOX).open({ keyId: s.instance.gateway_token_key_id, ciphertext: s.instance.gateway_token_sealed }, gatewayTokenContext(user.id));
    expect(token).toMatch(/^gw_/);
    expect(s.instance.gateway_token_hash).toEqual(createHash('sha256').update(token).digest());
    expect(JSON.stringify(s.instance)).not.toContain(token);

    // a retried job after success changes nothing: no event, same instance, same process
    const before = { instance: s.instance, uptime: stats!.uptimeMs };
    await runJob(container, data);
    const again = await state(infra.pools.owner, agent.id, user.id);
    expect(again.status).toBe('running');
    expect(again.events).toHaveLength(1);
    expect(again.instance).toEqual(before.instance);
    expect((await runtime.stats(user.id as UserId))!.uptimeMs).toBeGreaterThanOrEqual(before.uptime);

    // the user's next agent joins the same runtime with the same token: the instance is not restarted
    const second = await provisioned(app, infra.pools.owner, 'solo', user);
    await runJob(container, second.data);
    const joined = await state(infra.pools.owner, second.agent.id, user.id);
    expect(joined.status).toBe('running');
    expect(joined.instance.started_at).toEqual(s.instance.started_at);
    expect(joined.instance.gateway_token_hash).toEqual(s.instance.gateway_token_hash);
    expect((await runtime.stats(user.id as UserId))!.uptimeMs).toBeGreaterThanOrEqual(before.uptime);
  });

  it('when the agent is no longer provisioning (stopped meanwhile), then the job leaves it alone and starts nothing', async () => {
    const { app, infra, container } = ok;
    const { user, agent, data } = await provisioned(app, infra.pools.owner, 'label');
    await infra.pools.owner.query(`update agents set status = 'stopped' where id = $1`, [agent.id]);
    await runJob(container, data);
    const s = await state(infra.pools.owner, agent.id, user.id);
    // the instance was made with the agent; the job leaves it as it was
    expect(s).toMatchObject({ status: 'stopped', events: [], instance: { status: 'provisioning', started_at: null } });
    expect(container.resolve(AGENT_RUNTIME).isRunning(user.id as UserId)).toBe(false);
  });

  it('when the runtime cannot start, then the agent ends in error with a provision_failed event and its reason; the failure is final', async () => {
    const { app, infra, container } = failing;
    const { user, agent, data } = await provisioned(app, infra.pools.owner, 'label');
    await expect(runJob(container, data)).resolves.toBeUndefined();
    const s = await state(infra.pools.owner, agent.id, user.id);
    expect(s.status).toBe('error');
    expect(s.events).toEqual([{ kind: 'provision_failed', duration_ms: expect.any(Number), reason: expect.stringMatching(/.+/) }]);
    expect(s.instance).toMatchObject({ status: 'error', started_at: null });
    expect(container.resolve(AGENT_RUNTIME).isRunning(user.id as UserId)).toBe(false);
    // a redelivery of the same job finds the agent no longer provisioning: nothing more happens
    await runJob(container, data);
    expect((await state(infra.pools.owner, agent.id, user.id)).events).toHaveLength(1);
  });

  it('when the job data is unreadable, then the handler refuses it with a domain error (final, not retried)', async () => {
    await expect(runJob(ok.container, { agentId: 'nope' })).rejects.toMatchObject({ code: 'PROVISION_JOB_INVALID' });
  });
});

describe('the worker', () => {
  it('when a worker runs, then a provisioned agent reaches running through the real queue (handler registered for the provision kind)', async () => {
    const { startWorker } = await import('../../../src/bootstrap/worker.js');
    const worked = await startTestApp({ env: { RUNTIME_RUN_AS_USER: '' } });
    await startWorker(worked.container, worked.infra.queue, worked.infra.afterQueueStops);
    const { user, agent } = await provisioned(worked.app, worked.infra.pools.owner, 'label');
    const s = await waitFor(() => state(worked.infra.pools.owner, agent.id, user.id), (x) => x.status !== 'provisioning', 20_000, 200);
    expect(s.status).toBe('running');
    expect(s.events.map((e) => e.kind)).toEqual(['provisioned']);
    expect(worked.container.resolve(AGENT_RUNTIME).isRunning(user.id as UserId)).toBe(true);
  }, 30_000);
});
