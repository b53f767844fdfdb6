import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentStatus, provisionedUser } from '../../support/agents/instances.js';
import { waitFor } from '../../support/polling.js';
import { spawnWorker } from '../../support/agents/worker-process.js';
import { spawnService } from '../../support/service-process.js';
import { startTestApp } from '../../support/test-app.js';

/**
 * Processes of one deployment must share JWT_SECRET, COOKIE_SECRET and ENCRYPTION_KEY: an api and
 * a worker process with data folders of their own refuse to start without them (generated ones
 * would differ), and a worker that cannot open an instance's sealed gateway token on takeover
 * (another ENCRYPTION_KEY) says so: the instance in `error` with the reason, logged at error.
 */
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'agent-host-split-'));
  made.push(d);
  return d;
};

describe('split roles without shared secrets', () => {
  it('when an api and a worker process with different data folders start without explicit secrets, then each exits 1 with one line naming the three, generating nothing', async () => {
    const folders = [dataDir(), dataDir()];
    const processes = await Promise.all(
      (['api', 'worker'] as const).map((role, i) =>
        spawnService({ SERVICE_ROLE: role, DATA_DIR: folders[i]!, JWT_SECRET: undefined, COOKIE_SECRET: undefined, ENCRYPTION_KEY: undefined }),
      ),
    );
    for (const [i, p] of processes.entries()) {
      expect(await p.exited).toBe(1);
      const role = i === 0 ? 'api' : 'worker';
      expect(p.output).toBe(
        `Invalid configuration: JWT_SECRET, COOKIE_SECRET, ENCRYPTION_KEY: required with SERVICE_ROLE=${role} (every api and worker process must share JWT_SECRET, COOKIE_SECRET and ENCRYPTION_KEY)\n`,
      );
      expect(existsSync(join(folders[i]!, 'secrets.json'))).toBe(false);
    }
  }, 60_000);
});

describe('a takeover by a worker with another ENCRYPTION_KEY', () => {
  it('when the new owner cannot open the sealed gateway token, then the instance and its agents are in error with the reason, logged at error, and the lease is let go', async () => {
    const api = await startTestApp({ env: { SERVICE_ROLE: 'api', RATE_LIMIT_AGENTS: '100000' } });
    const owner = api.infra.pools.owner;
    const first = await spawnWorker(api.databaseUrl); // the api's key: it seals the token
    const { user, agent } = await provisionedUser(api.app, owner);
    expect(await waitFor(() => agentStatus(owner, agent.id), (s) => s !== 'provisioning', 30_000)).toBe('running');
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await spawnWorker(api.databaseUrl, { ENCRYPTION_KEY: Buffer.alloc(32, 8).toString('base64') });
    expect(await waitFor(() => agentStatus(owner, agent.id), (s) => s === 'error', 20_000)).toBe('error');
    const instance = (await owner.query(`select status from instances where user_id = $1`, [user.id])).rows[0];
    expect(instance.status).toBe('error');
    const crashed = (await owner.query(`select reason from agent_events where agent_id = $1 and kind = 'crashed'`, [agent.id])).rows;
    expect(crashed).toEqual([{ reason: expect.stringMatching(/^gateway_token_unreadable: .*ENCRYPTION_KEY/) }]);
    const logged = second.output.split('\n').filter((l) => l.includes('gateway_token_unreadable')).map((l) => JSON.parse(l));
    expect(logged).toEqual([expect.objectContaining({ level: 50, userId: user.id })]);
    expect((await owner.query(`select count(*)::int as n from instance_leases where user_id = $1`, [user.id])).rows[0].n).toBe(0);
  }, 90_000);
});
