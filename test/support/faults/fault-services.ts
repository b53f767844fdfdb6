import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { sleep, until } from '../polling.js';
import { freePort, spawnService } from '../service-process.js';
import type { OwnPostgres } from './own-postgres.js';
import { request, signUpOverWire, type WireUser } from './wire-client.js';

type Spawned = Awaited<ReturnType<typeof spawnService>>;

/**
 * The service as processes of a fault test, each on a data directory of its own. `start` resolves
 * once the process logged "service started" and throws with its output if it exited instead.
 * After the file's tests it sends SIGTERM to those still running, SIGKILLs any still there after
 * 15 s, removes the data directories, then runs `thenClose` in order (the provider, PostgreSQL).
 */
export function faultServices(...thenClose: (() => Promise<unknown>)[]) {
  const spawned: Spawned[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const s of spawned) {
      if (s.child.exitCode !== null || s.child.signalCode !== null) continue;
      s.child.kill('SIGTERM');
      await Promise.race([s.exited, sleep(15_000)]);
      if (s.child.exitCode === null) s.child.kill('SIGKILL');
    }
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    for (const close of thenClose) await close();
  });
  return {
    /** Every process started so far (their output, for a failing test to print). */
    processes: spawned as readonly Spawned[],
    async start(env: Record<string, string>, opts: { databaseUrl?: string } = {}): Promise<{ service: Spawned; base: string }> {
      const dataDir = mkdtempSync(join(tmpdir(), 'agent-host-fault-data-'));
      dirs.push(dataDir);
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const service = await spawnService({ APP_URL: base, DATA_DIR: dataDir, RUNTIME_RUN_AS_USER: '', ...env }, { ...opts, port });
      spawned.push(service);
      await until('the service to start', 60_000, () => service.output.includes('"msg":"service started"') || service.child.exitCode !== null);
      if (service.child.exitCode !== null) throw new Error(`service exited:\n${service.output.slice(-3000)}`);
      return { service, base };
    },
  };
}

/** What the services of the load tests share: every role, agents answering through `provider`, limits out of the way, mailbox and heartbeat every 500 ms. */
export const agentServiceEnv = (provider: { baseUrl: string }, key: string): Record<string, string> => ({
  SERVICE_ROLE: 'all',
  OPENROUTER_API_KEY: key,
  OPENROUTER_BASE_URL: provider.baseUrl,
  RATE_LIMIT_AUTH: '100000',
  RATE_LIMIT_AGENTS: '100000',
  RATE_LIMIT_CHAT: '100000',
  AGENT_MAILBOX_POLL_MS: '500',
  INSTANCE_HEARTBEAT_MS: '500',
});

/** An active subscription to `plan`, written straight into the test's own PostgreSQL; returns its processor id. */
export async function subscribeOn(pgs: OwnPostgres, userId: string, plan = 'solo'): Promise<string> {
  const [row] = await pgs.query<{ id: string }>(
    `insert into subscriptions (processor_subscription_id, user_id, customer_id, kind, catalog, plan, status, last_event_at)
     values ('sub_' || md5(random()::text), $1, 'cus_' || md5(random()::text), 'subscription', 'checkout', $2, 'active', now())
     returning processor_subscription_id as id`,
    [userId, plan],
  );
  return row!.id;
}

export const agentStatusOn = async (pgs: OwnPostgres, agentId: string): Promise<string | undefined> =>
  (await pgs.query<{ status: string }>(`select status from agents where id = $1`, [agentId]))[0]?.status;

/** A signed-up, subscribed user whose agent runs and has answered once, so its runtime is warm. */
export async function userWithWarmAgent(base: string, pgs: OwnPostgres, name = 'Talker'): Promise<{ user: WireUser; agentId: string }> {
  const user = await signUpOverWire(base);
  await subscribeOn(pgs, user.id);
  const provisioned = await request(base, 'provision', 'POST', '/api/agents/provision', { headers: user.headers, body: { name } });
  expect(provisioned.status).toBe(201);
  const agentId = provisioned.body.agent.id as string;
  await until('the agent to run', 30_000, async () => (await agentStatusOn(pgs, agentId)) === 'running');
  expect((await request(base, 'chat', 'POST', '/api/chat', { headers: user.headers, body: { agentId, content: 'warm up' } })).status).toBe(200);
  return { user, agentId };
}
