import { describe, expect, it } from 'vitest';
import { sampleInstancesHandler } from '../../../src/adapters/inbound/jobs/sample-instances.handler.js';
import { SampleInstances } from '../../../src/application/metrics/sample-instances.use-case.js';
import { startWorker } from '../../../src/bootstrap/worker.js';
import { agentStatus, provisionedUser } from '../../support/agents/instances.js';
import { waitFor } from '../../support/polling.js';
import { call } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/**
 * The every-minute sampling job on the whole service in one process (SERVICE_ROLE=all): the job
 * asks each running instance for its stats through the command table, and this process's worker
 * side answers from the real ProcessAgentRuntime.
 */
const t = await startTestApp({ env: { RUNTIME_RUN_AS_USER: '', RATE_LIMIT_AGENTS: '100000', INSTANCE_HEARTBEAT_MS: '500', METRICS_TOKEN: 'sample-instances-metrics-token-0123' } });
await startWorker(t.container, t.infra.queue, t.infra.afterQueueStops);
const { app } = t;
const owner = t.infra.pools.owner;
const samples = async (userId: string) =>
  (await owner.query(`select sampled_at, cpu_percent, memory_percent, rss_bytes from instance_samples where user_id = $1 order by sampled_at`, [userId])).rows;

describe('metrics.sample-instances', () => {
  it('when an instance runs, then the job stores one sample of its runtime for the minute, marks the minute up, and prunes samples past 31 days', async () => {
    const { user, agent } = await provisionedUser(app, owner);
    expect(await waitFor(() => agentStatus(owner, agent.id), (s) => s !== 'provisioning')).toBe('running');
    await owner.query(`insert into instance_samples (user_id, sampled_at, cpu_percent, memory_percent, rss_bytes) values ($1, now() - interval '32 days', 1, 1, 1)`, [user.id]);

    const result = await t.container.resolve(SampleInstances).execute();
    expect(result).toEqual({ sampled: 1, pruned: 1 });
    const rows = await samples(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].sampled_at.getTime() % 60_000).toBe(0);
    expect(rows[0].cpu_percent).toBeGreaterThanOrEqual(0);
    expect(rows[0].memory_percent).toBeGreaterThan(0);
    expect(Number(rows[0].rss_bytes)).toBeGreaterThan(1_000_000);
    expect((await owner.query(`select count(*)::int as n from platform_ticks`)).rows[0].n).toBe(1);

    // again through the job handler: one sample per minute (the same minute is not written twice)
    await sampleInstancesHandler(t.container.resolve(SampleInstances))({});
    const again = await samples(user.id);
    expect(again.filter((r) => r.sampled_at.getTime() === rows[0].sampled_at.getTime())).toHaveLength(1);
    expect(again.length).toBeLessThanOrEqual(2);

    // the performance endpoint reads that sample
    const perf = await call(app, { method: 'GET', url: `/api/metrics/${user.id}/performance`, headers: { cookie: user.cookie } });
    expect(perf.status).toBe(200);
    expect(perf.body.memory).toBeCloseTo(rows[0].memory_percent, 2);
    // the public platform figures count the running agent and the minute's tick
    const platform = await call(app, { method: 'GET', url: '/api/metrics' });
    expect(platform.body.metrics.agents.active).toBeGreaterThanOrEqual(1);
    // every minute since the first tick has one, unless the clock crossed a minute between two runs
    expect(platform.body.metrics.uptime.platformUptime).toBeGreaterThanOrEqual(50);
    // this process is the worker: Prometheus counts the runtime it runs
    expect((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer sample-instances-metrics-token-0123' } })).body).toMatch(/^agent_runtimes_running [1-9]/m);
  }, 60_000);

  it('when an instance is stopped, then the job takes no sample of it (none invented)', async () => {
    const { user, agent } = await provisionedUser(app, owner);
    expect(await waitFor(() => agentStatus(owner, agent.id), (s) => s !== 'provisioning')).toBe('running');
    expect((await call(app, { method: 'POST', url: `/api/instance/${user.id}/stop`, headers: user.headers })).status).toBe(200);
    await t.container.resolve(SampleInstances).execute();
    expect(await samples(user.id)).toEqual([]);
  }, 60_000);
});
