import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer } from '../../support/ai/fake-openai-server.js';
import { startOwnPostgres } from '../../support/faults/own-postgres.js';
import { request, signUpOverWire } from '../../support/faults/wire-client.js';
import { sleep, until } from '../../support/polling.js';
import { freePort, spawnService } from '../../support/service-process.js';

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
const dataDir = mkdtempSync(join(tmpdir(), 'agent-host-outage-data-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const service = await spawnService(
  {
    SERVICE_ROLE: 'all',
    APP_URL: base,
    DATA_DIR: dataDir,
    RUNTIME_RUN_AS_USER: '',
    OPENROUTER_API_KEY: KEY,
    OPENROUTER_BASE_URL: provider.baseUrl,
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    RATE_LIMIT_CHAT: '100000',
    AGENT_MAILBOX_POLL_MS: '500',
    AGENT_MAILBOX_STALE_MS: '600000',
    AGENT_REPLY_TIMEOUT_MS: String(REPLY_TIMEOUT_MS),
    INSTANCE_HEARTBEAT_MS: '500',
  },
  { databaseUrl: pgs.url, port },
);
afterAll(async () => {
  if (service.child.exitCode === null) {
    service.child.kill('SIGTERM');
    await Promise.race([service.exited, sleep(15_000)]);
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
  }
  await provider.close();
  await pgs.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('an agent\'s answer in a database outage', () => {
  it('when PostgreSQL stops between the stored message and its answer, then POST /api/chat answers 202 pending, and the message is answered once after PostgreSQL returns', async () => {
    try {
      await until('the service to start', 60_000, () => service.output.includes('"msg":"service started"') || service.child.exitCode !== null);
      expect(service.child.exitCode).toBeNull();
      const user = await signUpOverWire(base);
      await pgs.query(
        `insert into subscriptions (processor_subscription_id, user_id, customer_id, kind, catalog, plan, status, last_event_at)
         values ('sub_outage', $1, 'cus_outage', 'subscription', 'checkout', 'solo', 'active', now())`,
        [user.id],
      );
      const provisioned = await request(base, 'provision', 'POST', '/api/agents/provision', { headers: user.headers, body: { name: 'Outage' } });
      expect(provisioned.status).toBe(201);
      const agentId = provisioned.body.agent.id as string;
      await until('the agent to run', 30_000, async () => (await pgs.query(`select status from agents where id = $1`, [agentId]))[0]?.status === 'running');
      expect((await request(base, 'chat', 'POST', '/api/chat', { headers: user.headers, body: { agentId, content: 'warm up' } })).status).toBe(200);

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
