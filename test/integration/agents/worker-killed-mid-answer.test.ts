import { describe, expect, it } from 'vitest';
import { startChatService } from '../../support/agents/chat-service.js';
import { agentStatus, provisionedUser } from '../../support/agents/instances.js';
import { waitFor } from '../../support/polling.js';
import { spawnWorker } from '../../support/agents/worker-process.js';
import { call } from '../../support/http-client.js';

/**
 * Scale-out with real processes: an api process (this one, SERVICE_ROLE=api, on a real port) and two
 * worker processes (SERVICE_ROLE=worker) on one database. The workers' APP_URL points where nothing
 * listens and their AGENT_SERVICE_URL at the api: agent hosts call the service back at the latter.
 * A worker killed (SIGKILL) in the middle of an answer: the survivor takes the instance over and
 * answers the message that was being answered at once, not after AGENT_MAILBOX_STALE_MS (10 minutes here).
 */
const STALE_MS = 600_000;
const t = await startChatService({ run: 'none', env: { SERVICE_ROLE: 'api', AGENT_REPLY_TIMEOUT_MS: '2000', RATE_LIMIT_INSTANCE: '100000' } });
const owner = t.infra.pools.owner;
const workerEnv = {
  APP_URL: 'http://127.0.0.1:9', // nothing listens there: an agent host calling it would never answer
  AGENT_SERVICE_URL: t.config.APP_URL,
  AGENT_MAILBOX_STALE_MS: String(STALE_MS),
};
const workers = [await spawnWorker(t.databaseUrl, workerEnv), await spawnWorker(t.databaseUrl, workerEnv)];

const mailboxRow = async (messageId: string) =>
  (await owner.query(`select status, attempts, claimed_by, reply_message_id from agent_mailbox where message_id = $1`, [messageId])).rows[0];

describe('a worker killed in the middle of an answer', () => {
  it('when agent hosts are given AGENT_SERVICE_URL, then they call the service there (APP_URL leads nowhere) and the agent answers', async () => {
    const { user, agent } = await provisionedUser(t.app, owner);
    expect(await waitFor(() => agentStatus(owner, agent.id), (s) => s !== 'provisioning', 30_000)).toBe('running');
    const before = t.provider.requests.length;
    const chat = await call(t.app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId: agent.id, content: 'hello' } });
    expect(chat).toMatchObject({ status: 200, body: { reply: { role: 'assistant', content: 'Hello, world!' } } });
    expect(t.provider.requests.length).toBe(before + 1); // through this api process's /api/runtime/chat
  }, 60_000);

  it('when the worker answering a message is killed, then the survivor answers it within seconds, once, and the interrupted call holds no reservation', async () => {
    const { user, agent } = await provisionedUser(t.app, owner);
    expect(await waitFor(() => agentStatus(owner, agent.id), (s) => s !== 'provisioning', 30_000)).toBe('running');

    // the provider holds the answer open, so the worker is in the middle of it when it dies
    t.provider.setBehaviour({ kind: 'stall' });
    const before = t.provider.requests.length;
    const sent = await call(t.app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId: agent.id, content: 'are you there?' } });
    expect(sent).toMatchObject({ status: 202, body: { pending: true } });
    const messageId = sent.body.message.id as string;
    await waitFor(async () => t.provider.requests.length, (n) => n > before, 10_000);
    const stalled = t.provider.requests[before]!;

    const lease = (await owner.query(`select worker_id from instance_leases where user_id = $1`, [user.id])).rows[0];
    expect(await mailboxRow(messageId)).toMatchObject({ status: 'working', claimed_by: lease.worker_id });
    const victim = workers.find((w) => w.pid === Number(lease.worker_id.split(':')[1]))!;
    const survivor = workers.find((w) => w !== victim)!;
    t.provider.setBehaviour({ kind: 'reply', chunks: ['Still ', 'here.'] });
    victim.child.kill('SIGKILL');
    await victim.exited;
    const killedAt = Date.now();

    const answered = await waitFor(() => mailboxRow(messageId), (r) => r.status === 'answered', 30_000, 100);
    const tookMs = Date.now() - killedAt;
    console.log(`the killed worker's message answered ${tookMs} ms after the kill (stale bound ${STALE_MS} ms)`);
    expect(answered.status).toBe('answered');
    expect(tookMs).toBeLessThan(20_000);
    expect(answered).toMatchObject({ attempts: 2, claimed_by: expect.stringContaining(`:${survivor.pid}:`) });
    const replies = (await owner.query(`select content from agent_messages where agent_id = $1 and role = 'assistant'`, [agent.id])).rows;
    expect(replies).toEqual([{ content: 'Still here.' }]);
    expect(answered.reply_message_id).not.toBeNull();

    // the interrupted provider call was abandoned and its reservation released, none left open
    await stalled.closed;
    expect(stalled.closedByClient).toBe(true);
    const open = await waitFor(
      async () => (await owner.query(`select count(*)::int as n from usage_reservations where payer = $1 and status = 'open'`, [user.id])).rows[0].n,
      (n) => n === 0,
      5_000,
    );
    expect(open).toBe(0);

    // and the agent goes on answering on the survivor
    const next = await call(t.app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId: agent.id, content: 'and now?' } });
    expect(next).toMatchObject({ status: 200, body: { reply: { content: 'Still here.' } } });
  }, 90_000);
});
