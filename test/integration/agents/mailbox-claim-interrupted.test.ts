import { describe, expect, it } from 'vitest';
import { runningAgent, startChatService } from '../../support/agents/chat-service.js';
import { waitFor } from '../../support/polling.js';
import { call } from '../../support/http-client.js';

/**
 * The database failing at the claim (a grant revoked for a moment makes the reads that build the
 * delivery fail, every time). The claim and those reads are one statement, so the claim fails with
 * them: the message stays queued, and is answered as soon as the database answers again, within a
 * sweep, not after AGENT_MAILBOX_STALE_MS (10 minutes here). A claim that committed but whose result
 * was lost on the way (the connection cut) is named before it is made and handed back by that name
 * (the persistence test of the mailbox holds retryLater by claim id).
 *
 * A message to an idle agent is stored already claimed, its context read by the request role in the
 * same statement (decision 0368), so it takes no claim: here an earlier message of the agent is still
 * queued (stored by another process), and the one sent waits behind it for the lanes' claims.
 */
// the sweep that hands claims back runs every 3 s: time enough to restore the grant before it
const t = await startChatService({ env: { AGENT_MAILBOX_STALE_MS: '600000', AGENT_MAILBOX_POLL_MS: '3000', AGENT_REPLY_TIMEOUT_MS: '1000' } });
const owner = t.infra.pools.owner;

describe('a claim whose delivery cannot be read', () => {
  it('when the claim\'s reads fail, then nothing is claimed and the message is answered once they work, once', async () => {
    const { user, agent } = await runningAgent(t);
    await owner.query(`REVOKE SELECT ON agent_memory FROM app_system`);
    let granted = false;
    try {
      const earlier = (
        await owner.query(`insert into agent_messages (agent_id, user_id, role, content, channel) values ($1, $2, 'user', 'queued before', 'web') returning id`, [agent.id, user.id])
      ).rows[0].id as string;
      await owner.query(`insert into agent_mailbox (message_id, agent_id, user_id) values ($1, $2, $3)`, [earlier, agent.id, user.id]);
      const sent = await call(t.app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId: agent.id, content: 'claimed, then lost' } });
      expect(sent).toMatchObject({ status: 202, body: { pending: true } });
      const messageId = sent.body.message.id as string;
      const row = async () => (await owner.query(`select status, attempts from agent_mailbox where message_id = $1`, [messageId])).rows[0];
      // the step failed, and its claim with it: still queued, never attempted
      await waitFor(async () => t.logs.some((l) => l.includes('agent mailbox step failed')), Boolean, 10_000, 10);
      expect(await row()).toMatchObject({ status: 'queued', attempts: 0 });
      expect((await owner.query(`select status, attempts from agent_mailbox where message_id = $1`, [earlier])).rows[0]).toMatchObject({ status: 'queued', attempts: 0 });

      await owner.query(`GRANT SELECT ON agent_memory TO app_system`);
      granted = true;
      const back = Date.now();
      const answered = await waitFor(row, (r) => r.status === 'answered', 10_000);
      expect(answered).toMatchObject({ status: 'answered', attempts: 1 });
      expect(Date.now() - back).toBeLessThan(6_000); // within a sweep or two
      const replies = (await owner.query(`select content from agent_messages where agent_id = $1 and role = 'assistant'`, [agent.id])).rows;
      expect(replies).toEqual([{ content: 'Hello, world!' }, { content: 'Hello, world!' }]);
    } finally {
      if (!granted) await owner.query(`GRANT SELECT ON agent_memory TO app_system`);
    }
  }, 60_000);
});
