import { describe, expect, it } from 'vitest';
import { agentStatus, provisionedUser } from '../../support/agents/instances.js';
import { waitFor } from '../../support/polling.js';
import { spawnWorker } from '../../support/agents/worker-process.js';
import { cleanUpLater } from '../../support/cleanup.js';
import { call } from '../../support/http-client.js';
import { dockerEngine, type DockerTestEngine } from '../../support/agent-runtimes/docker-engine.js';
import { startTestApp } from '../../support/test-app.js';
import { createTestDatabase } from '../../support/test-database.js';

/**
 * A worker process on the docker runtime killed (SIGKILL) while its containers run: they run on
 * without it. The next worker takes the instances over when their leases expire and starts each
 * again; the container left over of the same name is replaced, so every instance ends with
 * exactly one container, running and answering its stats from the engine.
 */
const engine = await dockerEngine();
const skip = 'skip' in engine ? engine.skip : null;
const workerPidOf = (workerId: string) => Number(workerId.split(':')[1]);

describe.skipIf(skip)(`a docker worker restarted${skip ? ` (skipped: ${skip})` : ''}`, () => {
  // nothing is started without an engine; one skipped entry carries the reason into the report
  if (skip) return void it.skip(`needs a Docker Engine: ${skip}`, () => undefined);
  const e = engine as DockerTestEngine;
  const containersOf = (userId: string) => e.docker('ps', '-aq', '--no-trunc', '--filter', `label=agent-host.user=${userId}`).split('\n').filter(Boolean);

  it('when the worker is killed while its containers run, then the next worker takes them over without a duplicate: one running container per instance', async () => {
    const db = await createTestDatabase();
    const api = await startTestApp({ databaseUrl: db.url, env: { RATE_LIMIT_AGENTS: '100000', RATE_LIMIT_INSTANCE: '100000' } });
    const owner = api.infra.pools.owner;
    const env = { AGENT_RUNTIME: 'docker', DOCKER_HOST: e.host, RUNTIME_DOCKER_IMAGE: e.image, RUNTIME_WATCHDOG_INTERVAL_MS: '500' };
    const first = await spawnWorker(db.url, env);
    const users = [await provisionedUser(api.app, owner), await provisionedUser(api.app, owner)];
    // a killed worker's containers outlive it: whatever a failed run leaves on a shared engine is removed here
    cleanUpLater(() => {
      for (const { user } of users) for (const id of containersOf(user.id)) e.docker('rm', '-f', id);
    });
    for (const u of users) expect(await waitFor(() => agentStatus(owner, u.agent.id), (s) => s !== 'provisioning', 30_000)).toBe('running');
    const before = new Map(users.map(({ user }) => [user.id, containersOf(user.id)]));
    for (const ids of before.values()) expect(ids).toHaveLength(1);

    first.child.kill('SIGKILL');
    await first.exited;
    // orphaned, still running
    for (const ids of before.values()) expect(JSON.parse(e.docker('inspect', ids[0]!))[0].State.Running).toBe(true);

    const second = await spawnWorker(db.url, env);
    const takenAt = Date.now();
    for (const { user } of users) {
      const lease = await waitFor(
        async () => (await owner.query(`select worker_id from instance_leases where user_id = $1`, [user.id])).rows[0]?.worker_id as string | undefined,
        (w) => w !== undefined && workerPidOf(w) === second.pid,
        30_000,
        200,
      );
      expect(workerPidOf(lease!)).toBe(second.pid);
    }
    for (const { user, agent } of users) {
      // the takeover removes the orphan, then creates and starts the new container: between those two
      // steps the one container listed is not running yet
      const isRunning = (id: string) => {
        try {
          return JSON.parse(e.docker('inspect', id))[0].State.Running === true;
        } catch {
          return false; // removed between the listing and the inspection
        }
      };
      const ids = await waitFor(async () => containersOf(user.id), (c) => c.length === 1 && c[0] !== before.get(user.id)![0] && isRunning(c[0]!), 15_000, 200);
      expect(ids).toHaveLength(1);
      expect(ids[0]).not.toBe(before.get(user.id)![0]);
      expect(isRunning(ids[0]!)).toBe(true);
      expect(await agentStatus(owner, agent.id)).toBe('running');
      const stats = await call(api.app, { method: 'GET', url: `/api/instance/${user.id}/stats`, headers: { cookie: user.cookie } });
      expect(stats).toMatchObject({ status: 200, body: { status: 'running', memory: expect.stringMatching(/MB$/) } });
    }
    console.log(`instances running again on the second worker ${Date.now() - takenAt} ms after it started`);
  }, 120_000);
});
