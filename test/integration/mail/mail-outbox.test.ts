import { afterAll, describe, expect, it } from 'vitest';
import { startWorker } from '../../../src/bootstrap/worker.js';
import { waitFor } from '../../support/polling.js';
import { call, tokenFrom, uniqueEmail } from '../../support/http-client.js';
import { startSmtpServer } from '../../support/mail/smtp-server.js';
import { startTestApp } from '../../support/test-app.js';

/**
 * Account mail through the outbox: the mail row and its job commit with the token, and a worker
 * sends it with retries (1-second delay here). The SMTP relay is a real smtp-server that refuses
 * an address's first delivery on purpose.
 */
const refusedOnce = new Set<string>();
const failFirst = new Set<string>();
const smtp = await startSmtpServer({
  rejectRecipient: (address) => {
    if (!failFirst.has(address) || refusedOnce.has(address)) return false;
    refusedOnce.add(address);
    return true;
  },
});
afterAll(() => smtp.close());
const env = { SMTP_URL: smtp.url, MAIL_RETRY_DELAY_SECONDS: '1', MAIL_RETRY_LIMIT: '3' };
// an api process: it writes the mail and its job, and sends nothing itself
const api = await startTestApp({ env });
const owner = api.infra.pools.owner;
const mailRow = async (to: string) =>
  (await owner.query(`select attempts, last_error, delivered_at from outbox where topic = 'mail' and payload->>'to' = $1`, [to])).rows;
const mailJobStates = async (to: string) =>
  (
    await owner.query(
      `select j.state from pgboss.job j join outbox o on j.data->>'outboxId' = o.id::text where o.topic = 'mail' and o.payload->>'to' = $1`,
      [to],
    )
  ).rows.map((r) => r.state);

// a second process on the same database, whose worker side the first test starts
const worker = await startTestApp({ env, databaseUrl: api.databaseUrl });
const startWorkerProcess = () => startWorker(worker.container, worker.infra.queue, worker.infra.afterQueueStops);

describe('account mail through the outbox', () => {
  it('when no worker runs at the commit, then the mail waits in the outbox and a worker started later sends it once', async () => {
    const email = uniqueEmail();
    expect((await call(api.app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw' } })).status).toBe(201);
    expect(await mailRow(email)).toMatchObject([{ delivered_at: null }]);
    expect(smtp.messages.some((m) => m.envelope.to.includes(email))).toBe(false);

    await startWorkerProcess();
    const mail = await smtp.waitForMessage((m) => m.envelope.to.includes(email), 15_000);
    expect(tokenFrom(mail.text)).toBeTruthy();
    await waitFor(() => mailRow(email), (rows) => rows[0]?.delivered_at !== null);
    expect(smtp.messages.filter((m) => m.envelope.to.includes(email))).toHaveLength(1);
  });

  it('when the relay refuses the first try, then the job retries and the mail arrives exactly once', async () => {
    const email = uniqueEmail('retry');
    failFirst.add(email);
    expect((await call(api.app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email } })).status).toBe(200);
    // no account: no mail at all, the same answer
    expect(await mailRow(email)).toHaveLength(0);
    expect((await call(api.app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw' } })).status).toBe(201);
    const rows = await waitFor(() => mailRow(email), (r) => r[0]?.delivered_at instanceof Date, 20_000);
    expect(rows[0]).toMatchObject({ attempts: 1, last_error: expect.stringContaining('550') });
    expect(refusedOnce.has(email)).toBe(true);
    // once its job is completed nothing can send this mail again: count what the relay got by then
    await expect.poll(() => mailJobStates(email), { timeout: 10_000, interval: 50 }).toEqual(['completed']);
    expect(smtp.messages.filter((m) => m.envelope.to.includes(email))).toHaveLength(1);
  });
});
