import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AGENT_RUNTIME } from '../../src/application/ports/agent-runtime.port.js';
import { startWorker } from '../../src/bootstrap/worker.js';
import type { UserId } from '../../src/domain/shared/ids.js';
import { subscribe } from '../support/ai/chat-fixtures.js';
import { agentStatus, provisionedUser } from '../support/agents/instances.js';
import { waitFor } from '../support/polling.js';
import { call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * POST /api/agents/:id/remove (CONTRACT.md section 7 "removing an agent") on the whole service in
 * one process with its worker and the real ProcessAgentRuntime.
 */
const t = await startTestApp({ env: { RUNTIME_RUN_AS_USER: '', RATE_LIMIT_AGENTS: '100000', INSTANCE_HEARTBEAT_MS: '500' } });
await startWorker(t.container, t.infra.queue, t.infra.afterQueueStops);
const { app } = t;
const owner = t.infra.pools.owner;
const runtime = t.container.resolve(AGENT_RUNTIME);

const remove = (user: SignedIn | null, agentId: string) =>
  call(app, { method: 'POST', url: `/api/agents/${agentId}/remove`, headers: user ? user.headers : {} });
const provision = (user: SignedIn, name: string) => call(app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name } });

/** Every row that is the agent's, table by table, as the owner role sees them. */
async function rowsOf(agentId: string): Promise<Record<string, number>> {
  const tables = ['agents', 'agent_messages', 'agent_sessions', 'agent_memory', 'skill_installs', 'agent_credentials', 'agent_verifications', 'agent_events', 'agent_mailbox'];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const column = table === 'agents' ? 'id' : 'agent_id';
    counts[table] = Number((await owner.query(`select count(*)::int as n from ${table} where ${column} = $1`, [agentId])).rows[0].n);
  }
  return counts;
}

/** Gives the agent one row in every table that holds an agent's data. */
async function fillAgentData(agentId: string, userId: string) {
  const session = (await owner.query(`insert into agent_sessions (agent_id, user_id) values ($1, $2) returning id`, [agentId, userId])).rows[0].id;
  const message = (await owner.query(`insert into agent_messages (agent_id, user_id, role, content, session_id) values ($1, $2, 'user', 'hi', $3) returning id`, [agentId, userId, session])).rows[0].id;
  // queued: the running agent may answer or fail it while the removal runs; both lock the agent before the
  // mailbox row, in the removal's order (test/integration/persistence/agent-mailbox.test.ts holds each path)
  await owner.query(`insert into agent_mailbox (message_id, agent_id, user_id) values ($1, $2, $3)`, [message, agentId, userId]);
  await owner.query(`insert into agent_memory (agent_id, user_id, key, value) values ($1, $2, 'k', '"v"')`, [agentId, userId]);
  await owner.query(`insert into skill_installs (agent_id, user_id, skill_id, version) values ($1, $2, 'notes', '1.0.0')`, [agentId, userId]);
  await owner.query(`insert into agent_credentials (agent_id, user_id, name, key_id, sealed) values ($1, $2, 'token', 'k1', $3)`, [agentId, userId, randomBytes(16)]);
  await owner.query(`insert into agent_verifications (agent_id, user_id, verification_type) values ($1, $2, 'ens')`, [agentId, userId]);
}

async function runningUser(plan = 'solo') {
  const u = await provisionedUser(app, owner, plan);
  expect(await waitFor(() => agentStatus(owner, u.agent.id), (s) => s !== 'provisioning')).toBe('running');
  return u;
}

describe('POST /api/agents/:id/remove', () => {
  it('when the owner removes their only agent, then it and all its data are gone, the runtime stops, and at the limit a new agent can be provisioned at once', async () => {
    // label: one agent
    const { user, agent } = await runningUser('label');
    await fillAgentData(agent.id, user.id);
    expect(Object.values(await rowsOf(agent.id)).every((n) => n > 0)).toBe(true);
    expect((await provision(user, 'Second')).status).toBe(429);

    const res = await remove(user, agent.id);
    expect(res).toMatchObject({ status: 200, body: { success: true, runtimeStopped: true } });
    expect(Object.values(await rowsOf(agent.id)).every((n) => n === 0)).toBe(true);
    expect(runtime.isRunning(user.id as UserId)).toBe(false);
    expect((await owner.query(`select status from instances where user_id = $1`, [user.id])).rows[0].status).toBe('stopped');
    expect((await call(app, { method: 'GET', url: `/api/agents/${agent.id}`, headers: { cookie: user.cookie } })).status).toBe(404);
    expect((await call(app, { method: 'GET', url: '/api/agents/allowance', headers: { cookie: user.cookie } })).body.agents).toEqual({ current: 0, limit: 1 });

    const again = await provision(user, 'Again');
    expect(again.status).toBe(201);
    expect(await waitFor(() => agentStatus(owner, again.body.agent.id), (s) => s !== 'provisioning')).toBe('running');
    expect(runtime.isRunning(user.id as UserId)).toBe(true);
    // removing it again: it is gone
    expect((await remove(user, agent.id)).status).toBe(404);
  }, 60_000);

  it('when another agent is left, then only the removed one goes and the runtime keeps running', async () => {
    const { user, agent } = await runningUser('solo');
    const second = await provision(user, 'Second');
    expect(await waitFor(() => agentStatus(owner, second.body.agent.id), (s) => s !== 'provisioning')).toBe('running');
    await fillAgentData(second.body.agent.id, user.id);

    expect(await remove(user, agent.id)).toMatchObject({ status: 200, body: { success: true, runtimeStopped: false } });
    expect(await agentStatus(owner, agent.id)).toBeUndefined();
    expect(Object.values(await rowsOf(second.body.agent.id)).every((n) => n > 0)).toBe(true);
    expect(runtime.isRunning(user.id as UserId)).toBe(true);
    expect(await agentStatus(owner, second.body.agent.id)).toBe('running');
  }, 60_000);

  it('when another user, nobody, an unknown or a malformed id is given, then 404, 401, 404 (a non-uuid too) 414 (too long) and 400 (a malformed body), and nothing changes', async () => {
    const user = await signUpAndIn(app);
    await subscribe(owner, user.id, 'solo');
    const agentId = (await owner.query(`insert into agents (user_id, name, model, status) values ($1, 'Kept', 'm', 'stopped') returning id`, [user.id])).rows[0].id;
    await fillAgentData(agentId, user.id);
    const before = await rowsOf(agentId);
    const other = await signUpAndIn(app);

    const stranger = await remove(other, agentId);
    expect(stranger).toMatchObject({ status: 404, body: { error: expect.any(String), code: 'NOT_FOUND' } });
    expect((await remove(null, agentId))).toMatchObject({ status: 401, body: { code: 'AUTH_REQUIRED' } });
    expect((await remove(user, randomUUID())).status).toBe(404);
    // any text names an agent (a non-uuid none, like the other agent routes); past 200 characters it is bad input
    expect((await remove(user, 'not-a-uuid')).status).toBe(404);
    expect((await remove(user, 'x'.repeat(201))).status).toBe(414);
    const malformed = await call(app, { method: 'POST', url: `/api/agents/${agentId}/remove`, headers: { ...user.headers, 'content-type': 'application/json' }, payload: '{"oops' });
    expect(malformed.status).toBe(400);
    expect(await rowsOf(agentId)).toEqual(before);
  }, 30_000);
});

describe('when the runtime cannot be stopped', () => {
  it('then the removal is kept (the rows are gone, the count frees) and the answer says the runtime did not stop', async () => {
    // A service with no worker: nobody answers the stop command, which is withdrawn after the timeout.
    const f = await startTestApp({ env: { INSTANCE_COMMAND_TIMEOUT_MS: '300', RATE_LIMIT_AGENTS: '100000' } });
    const fOwner = f.infra.pools.owner;
    const user = await signUpAndIn(f.app);
    await subscribe(fOwner, user.id, 'label');
    const agentId = (await fOwner.query(`insert into agents (user_id, name, model, status) values ($1, 'Last', 'm', 'running') returning id`, [user.id])).rows[0].id;
    await fOwner.query(
      `insert into instances (user_id, status, started_at, subdomain, url, plan, runtime_version, gateway_token_key_id, gateway_token_sealed, gateway_token_hash)
       values ($1, 'running', now(), $2, 'http://x', 'label', 'v1', 'k1', $3, $4)`,
      [user.id, `u-${randomBytes(8).toString('hex')}`, randomBytes(16), randomBytes(32)],
    );

    const res = await call(f.app, { method: 'POST', url: `/api/agents/${agentId}/remove`, headers: user.headers });
    expect(res).toMatchObject({ status: 200, body: { success: true, runtimeStopped: false } });
    expect((await fOwner.query(`select count(*)::int as n from agents where id = $1`, [agentId])).rows[0].n).toBe(0);
    expect((await fOwner.query(`select count(*)::int as n from instance_commands where user_id = $1 and answer is null and claimed_by is null`, [user.id])).rows[0].n).toBe(0);
    const again = await call(f.app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: 'Next' } });
    expect(again.status).toBe(201);
  }, 30_000);
});
