import { describe, expect, it, onTestFailed } from 'vitest';
import { provisionAgentHandler } from '../../../src/adapters/inbound/jobs/provision-agent.handler.js';
import { CompleteProvisioning } from '../../../src/application/agents/complete-provisioning.use-case.js';
import { agentHostPid, agentStatus } from '../../support/agents/instances.js';
import { waitFor } from '../../support/polling.js';
import { subscribe } from '../../support/ai/chat-fixtures.js';
import { call, signUpAndIn } from '../../support/http-client.js';
import { startChatService } from '../../support/agents/chat-service.js';

/**
 * Issue 8's fault: a runtime process killed from outside while it answers. Within 5 s the agent is
 * in error; the message it was answering is not lost: it waits in the mailbox, and once repair
 * brings the runtime back it is answered. The whole service in one process (SERVICE_ROLE=all): the
 * worker side (instance heartbeat, crash handling, the mailbox) started as `npm start` starts it.
 */
const t = await startChatService({
  run: 'worker',
  env: { RATE_LIMIT_INSTANCE: '100000', AGENT_MAILBOX_POLL_MS: '300', AGENT_REPLY_TIMEOUT_MS: '1000', INSTANCE_HEARTBEAT_MS: '500' },
});
const { provider } = t;
const owner = t.infra.pools.owner;

describe('a runtime killed while it answers', () => {
  it('when the runtime dies under a message, then the agent is in error within 5 s, and after repair the message is answered', async () => {
    // a failure under load says what the service did: its warnings and errors, in order
    onTestFailed(() => console.log(t.logs.filter((l) => /"level":(40|50|60)/.test(l)).join('')));
    const user = await signUpAndIn(t.app);
    await subscribe(owner, user.id, 'solo');
    const provisioned = await call(t.app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: 'Survivor' } });
    expect(provisioned.status).toBe(201);
    const agentId = provisioned.body.agent.id as string;
    const job = (await owner.query(`select data from pgboss.job where name = 'provision' and data->>'agentId' = $1`, [agentId])).rows[0]!.data;
    const { kind: _kind, ...data } = job;
    await provisionAgentHandler(t.container.resolve(CompleteProvisioning))(data).catch(() => {}); // the worker may have run it already
    expect(await waitFor(() => agentStatus(owner, agentId), (s) => s !== 'provisioning')).toBe('running');

    // the provider holds the answer open, so the runtime is in the middle of it when it dies
    provider.setBehaviour({ kind: 'stall' });
    const before = provider.requests.length;
    const sent = await call(t.app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId, content: 'are you still there?' } });
    expect(sent.status).toBe(202);
    expect(sent.body.pending).toBe(true);
    await waitFor(async () => provider.requests.length, (n) => n > before, 10_000);

    process.kill(agentHostPid(user.id)!, 'SIGKILL');
    const killedAt = Date.now();
    expect(await waitFor(() => agentStatus(owner, agentId), (s) => s === 'error', 5_000)).toBe('error');
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    // the message was not failed: it waits for the runtime
    expect((await owner.query(`select status from agent_mailbox where message_id = $1`, [sent.body.message.id])).rows[0].status).toBe('queued');

    provider.setBehaviour({ kind: 'reply', chunks: ['Still ', 'here.'] });
    const repaired = await call(t.app, { method: 'POST', url: `/api/instance/${user.id}/repair`, headers: user.headers });
    expect(repaired.status).toBe(200);
    expect(await agentStatus(owner, agentId)).toBe('running');

    const answered = await waitFor(
      async () => (await owner.query(`select status, reply_message_id, attempts, error_code, error from agent_mailbox where message_id = $1`, [sent.body.message.id])).rows[0],
      (r) => r.status === 'answered',
      30_000,
    );
    if (answered.status !== 'answered') console.log('the mailbox row', answered);
    expect(answered.status).toBe('answered');
    const reply = (await owner.query(`select role, content from agent_messages where id = $1`, [answered.reply_message_id])).rows[0];
    expect(reply).toEqual({ role: 'assistant', content: 'Still here.' });
  }, 60_000);
});
