import { describe, expect, it } from 'vitest';
import { startFakeOpenAiServer } from '../../support/ai/fake-openai-server.js';
import { startOwnPostgres } from '../../support/faults/own-postgres.js';
import { agentServiceEnv, faultServices, userWithWarmAgent } from '../../support/faults/fault-services.js';
import { request } from '../../support/faults/wire-client.js';
import { sleep, until } from '../../support/polling.js';

/**
 * PostgreSQL stopped after POST /api/chat stored its message and while the agent answers it (the
 * service in its own process, SERVICE_ROLE=all, on an embedded PostgreSQL of this test's own):
 * the request answers 202 `{message, pending: true}`, never an error (a client retrying an error
 * would store the question twice), and the interrupted answer is answered once the database is
 * back, once, long before AGENT_MAILBOX_STALE_MS (10 minutes here).
 */
const KEY = 'sk-or-outage-key';
const REPLY_TIMEOUT_MS = 4_000;
/** Longer than the request's wait: the whole wait falls in the outage. */
const OUTAGE_MS = 6_000;
/** The provider's delay on the interrupted answer: the database goes while it is on its way. */
const ANSWER_DELAY_MS = 2_000;

const pgs = await startOwnPostgres();
const provider = await startFakeOpenAiServer({ apiKey: KEY });
const services = faultServices(() => provider.close(), () => pgs.destroy());
const { service, base } = await services.start(
  {
    ...agentServiceEnv(provider, KEY),
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    AGENT_MAILBOX_STALE_MS: '600000',
    AGENT_REPLY_TIMEOUT_MS: String(REPLY_TIMEOUT_MS),
  },
  { databaseUrl: pgs.url },
);

describe('an agent\'s answer in a database outage', () => {
  it('when PostgreSQL stops between the stored message and its answer, then POST /api/chat answers 202 pending, and the message is answered once after PostgreSQL returns', async () => {
    try {
      const { user, agentId } = await userWithWarmAgent(base, pgs, 'Outage');

      // the next answer is slow, so it is on its way when the database goes; the retry is quick
      provider.setScript([{ kind: 'slow', delayMs: ANSWER_DELAY_MS }, { kind: 'reply' }]);
      const before = provider.requests.length;
      const chat = request(base, 'chat', 'POST', '/api/chat', { headers: user.headers, body: { agentId, content: 'answer me through the outage' } });
      await until('the answer to be on its way', 10_000, () => provider.requests.length > before, 10);
      await pgs.stop();
      const stoppedAt = Date.now();
      const answer = await chat;
      expect(Date.now() - stoppedAt).toBeLessThan(OUTAGE_MS); // it answered while the database was still down
      expect(answer).toMatchObject({ status: 202, body: { pending: true, message: { role: 'user', content: 'answer me through the outage' } } });
      const messageId = answer.body.message.id as string;
      await sleep(Math.max(0, OUTAGE_MS - (Date.now() - stoppedAt)));
      await pgs.start();
      const restartedAt = Date.now();

      const row = await until('the interrupted message to be answered', 30_000, async () => {
        const [r] = await pgs.query(`select status, attempts, reply_message_id from agent_mailbox where message_id = $1`, [messageId]);
        return r?.status === 'answered' ? r : null;
      });
      const afterMs = Date.now() - restartedAt;
      console.log(`answered ${afterMs} ms after PostgreSQL returned (stale bound 600000 ms)`);
      expect(afterMs).toBeLessThan(15_000);
      // answered once: one reply for the question, and the question stored once
      const messages = await pgs.query<{ role: string; content: string }>(`select role, content from agent_messages where agent_id = $1 order by created_at`, [agentId]);
      expect(messages.filter((m) => m.content === 'answer me through the outage')).toHaveLength(1);
      expect(messages.filter((m) => m.role === 'assistant')).toHaveLength(2); // the warm-up's and this one's
      expect(row.reply_message_id).not.toBeNull();
      // the agent goes on answering
      const next = await request(base, 'chat', 'POST', '/api/chat', { headers: user.headers, body: { agentId, content: 'still there?' } });
      expect(next.status).toBe(200);
      expect(service.child.exitCode).toBeNull();
    } catch (err) {
      console.log(service.output.slice(-6000));
      throw err;
    }
  }, 150_000);
});
