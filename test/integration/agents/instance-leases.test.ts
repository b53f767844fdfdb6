import { describe, expect, it } from 'vitest';
import { provisionAgentHandler } from '../../../src/adapters/inbound/jobs/provision-agent.handler.js';
import { CompleteProvisioning } from '../../../src/application/agents/complete-provisioning.use-case.js';
import { AGENT_RUNTIME } from '../../../src/application/ports/agent-runtime.port.js';
import { INSTANCE_COMMANDS } from '../../../src/application/ports/instance-commands.port.js';
import { INSTANCE_LEASES } from '../../../src/application/ports/instance-leases.port.js';
import { startWorker } from '../../../src/bootstrap/worker.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { agentStatus, provisionedUser } from '../../support/agents/instances.js';
import { waitFor } from '../../support/polling.js';
import { call } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/**
 * Leases and commands on real PostgreSQL with two in-process services on one database: `a` runs
 * its worker side (heartbeat, commands), `b` is a second worker whose parts the test drives.
 */
// No test here waits for a lease to lapse (they expire it in SQL): a long lease keeps a's from lapsing
// while a loaded machine starves this process (with 3 s, b once started a runtime of its own under load)
const env = { RUNTIME_RUN_AS_USER: '', RATE_LIMIT_AGENTS: '100000', INSTANCE_HEARTBEAT_MS: '300', INSTANCE_LEASE_MS: '15000' };
const a = await startTestApp({ env });
await startWorker(a.container, a.infra.queue, a.infra.afterQueueStops);
const b = await startTestApp({ env, databaseUrl: a.databaseUrl });
const owner = a.infra.pools.owner;
const leasesA = a.container.resolve(INSTANCE_LEASES);
const leasesB = b.container.resolve(INSTANCE_LEASES);

async function runningOnA(plan = 'solo') {
  const u = await provisionedUser(a.app, owner, plan);
  expect(await waitFor(() => agentStatus(owner, u.agent.id), (s) => s !== 'provisioning')).toBe('running');
  return u;
}

describe('instance leases', () => {
  it('when a worker holds a live lease, then another cannot take it until it expires, and renewing keeps only what is still held', async () => {
    const { user } = await runningOnA();
    const id = user.id as UserId;
    expect(await leasesB.acquire(id)).toBe(false);
    expect(await leasesA.acquire(id)).toBe(true);
    await owner.query(`update instance_leases set expires_at = now() - interval '1 second' where user_id = $1`, [id]);
    expect(await leasesB.acquire(id)).toBe(true);
    expect(await leasesA.renew()).not.toContain(id);
    expect(await leasesB.renew()).toContain(id);
    // the lease lost, worker a stops the runtime it no longer owns at its next heartbeat
    const runtimeA = a.container.resolve(AGENT_RUNTIME);
    expect(await waitFor(async () => runtimeA.isRunning(id), (r) => !r, 5_000)).toBe(false);
    await leasesB.release(id);
  }, 30_000);

  it('when two workers race for a free lease, then exactly one wins', async () => {
    const { user } = await runningOnA();
    const id = user.id as UserId;
    await owner.query(`delete from instance_leases where user_id = $1`, [id]);
    for (let i = 0; i < 5; i++) {
      await owner.query(`delete from instance_leases where user_id = $1`, [id]);
      const won = await Promise.all([leasesA.acquire(id), leasesB.acquire(id)]);
      expect(won.filter(Boolean)).toHaveLength(1);
    }
    await owner.query(`delete from instance_leases where user_id = $1`, [id]);
  }, 30_000);

  it('when a command is open for an instance another worker holds, then only the holder claims it', async () => {
    const { user } = await runningOnA();
    await owner.query(`insert into instance_commands (user_id, command) values ($1, 'stats')`, [user.id]);
    // b may not claim it (a holds the lease); a's poller answers it
    const commands = b.container.resolve(INSTANCE_COMMANDS);
    expect(await commands.claim(leasesB.workerId, 3000)).toBeNull();
    const answered = await waitFor(async () => (await owner.query(`select claimed_by, answer from instance_commands where user_id = $1`, [user.id])).rows[0], (r) => r?.answer !== null, 5_000);
    expect(answered.claimed_by).toBe(leasesA.workerId);
    expect(answered.answer).toMatchObject({ ok: true, value: { pids: expect.any(Number) } });
  }, 30_000);
});

describe('the provision job and the lease', () => {
  it('when another live worker owns the instance, then the job asks it (join) and does not start a runtime of its own', async () => {
    const { user } = await runningOnA('solo');
    const second = await call(a.app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: 'Second' } });
    expect(second.status).toBe(201);
    // worker b runs the job (a's queue may race it: then the job finds the agent no longer provisioning)
    const job = (await owner.query(`select data from pgboss.job where name = 'provision' and data->>'agentId' = $1`, [second.body.agent.id])).rows[0].data;
    const { kind: _kind, ...data } = job;
    await provisionAgentHandler(b.container.resolve(CompleteProvisioning))(data);
    expect(await waitFor(() => agentStatus(owner, second.body.agent.id), (s) => s !== 'provisioning')).toBe('running');
    expect(b.container.resolve(AGENT_RUNTIME).isRunning(user.id as UserId)).toBe(false);
    expect(a.container.resolve(AGENT_RUNTIME).isRunning(user.id as UserId)).toBe(true);
    expect((await owner.query(`select worker_id from instance_leases where user_id = $1`, [user.id])).rows[0].worker_id).toBe(leasesA.workerId);
  }, 30_000);
});
