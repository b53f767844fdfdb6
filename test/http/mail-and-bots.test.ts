import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmtpServer } from '../support/mail/smtp-server.js';
import { call, signIn, tokenFrom, uniqueEmail } from '../support/http-client.js';
import { startWorker } from '../../src/bootstrap/worker.js';
import { startTestApp } from '../support/test-app.js';

/** A local stand-in for Turnstile's siteverify: "good-token" is human, anything else is not. */
async function startTurnstile() {
  let mode: 'ok' | 'down' = 'ok';
  const seen: URLSearchParams[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const form = new URLSearchParams(body);
    seen.push(form);
    if (mode === 'down') {
      res.writeHead(503).end('unavailable');
      return;
    }
    const success = form.get('response') === 'good-token';
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success, 'error-codes': success ? [] : ['invalid-input-response'] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, setMode: (m: 'ok' | 'down') => (mode = m) };
}

const smtp = await startSmtpServer();
afterAll(() => smtp.close());
const turnstile = await startTurnstile();
const { app, infra, container } = await startTestApp({
  env: { SMTP_URL: smtp.url, MAIL_FROM: 'Agent Host <no-reply@agents.test>', TURNSTILE_SECRET_KEY: 'ts-secret', TURNSTILE_BASE_URL: turnstile.url },
});
// the mail job runs where workers run
await startWorker(container, infra.queue, infra.afterQueueStops);

describe('registration through a real SMTP relay and bot detection', () => {
  it('when a human registers, then the verification mail arrives over SMTP and its link verifies the address', async () => {
    const email = uniqueEmail();
    const res = await call(app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw', turnstileToken: 'good-token' } });
    expect(res.status).toBe(201);
    const mail = await smtp.waitForMessage((m) => m.envelope.to.includes(email));
    expect(mail.envelope.from).toBe('no-reply@agents.test');
    const verified = await call(app, { method: 'GET', url: `/api/auth/verify-email?token=${encodeURIComponent(tokenFrom(mail.text))}` });
    expect(verified.status).toBe(200);
    const form = turnstile.seen.at(-1)!;
    expect(form.get('secret')).toBe('ts-secret');
    expect(form.get('remoteip')).toBe('127.0.0.1');
    // the mail went through the outbox (one row, sent by its job)
    const kept = await infra.pools.owner.query(`select delivered_at from outbox where topic = 'mail' and payload->>'to' = $1`, [email]);
    expect(kept.rows).toHaveLength(1);
  });

  it('when the bot check fails or no token is sent, then 403 BOT_DETECTED and no account', async () => {
    for (const payload of [{ turnstileToken: 'bot' }, {}]) {
      const email = uniqueEmail();
      const res = await call(app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw', ...payload } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('BOT_DETECTED');
      expect((await infra.pools.owner.query('select count(*)::int n from users where email = $1', [email])).rows[0].n).toBe(0);
    }
  });

  it('the token may come in the cf-turnstile-response header', async () => {
    const res = await call(app, { method: 'POST', url: '/api/register', headers: { 'cf-turnstile-response': 'good-token' }, payload: { email: uniqueEmail(), password: 'long enough pw' } });
    expect(res.status).toBe(201);
  });

  it('when the bot verifier is down, then 502 and no account (we fail closed)', async () => {
    turnstile.setMode('down');
    try {
      const email = uniqueEmail();
      const res = await call(app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw', turnstileToken: 'good-token' } });
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('UPSTREAM_UNAVAILABLE');
      expect((await infra.pools.owner.query('select count(*)::int n from users where email = $1', [email])).rows[0].n).toBe(0);
      const forgot = await call(app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email, turnstileToken: 'good-token' } });
      expect(forgot.status).toBe(502);
    } finally {
      turnstile.setMode('ok');
    }
  });

  it('when the SMTP relay is down, then the account is still created, the mail stays in the outbox with its error, and nothing logs the link', async () => {
    const broken = await startTestApp({ env: { SMTP_URL: 'smtp://nobody:nothing@127.0.0.1:9', TURNSTILE_SECRET_KEY: 'ts-secret', TURNSTILE_BASE_URL: turnstile.url } });
    await startWorker(broken.container, broken.infra.queue, broken.infra.afterQueueStops);
    const email2 = uniqueEmail();
    const res = await call(broken.app, { method: 'POST', url: '/api/register', payload: { email: email2, password: 'long enough pw', turnstileToken: 'good-token' } });
    expect(res.status).toBe(201);
    await signIn(broken.app, email2, 'long enough pw');
    const row = async () => (await broken.infra.pools.owner.query(`select attempts, last_error, delivered_at from outbox where topic = 'mail' and payload->>'to' = $1`, [email2])).rows[0];
    await expect.poll(row, { timeout: 15_000 }).toMatchObject({ delivered_at: null, last_error: expect.stringContaining('mail relay failed') });
    // the failure is recorded on the row, then thrown to pg-boss, which logs it
    await expect.poll(() => broken.logs.some((l) => l.includes('job failed; pg-boss retries it'))).toBe(true);
    expect(broken.logs.some((l) => l.includes('verify-email?token='))).toBe(false);
  });

  it('a password reset mail arrives over SMTP and its link works', async () => {
    const email = uniqueEmail();
    await call(app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw', turnstileToken: 'good-token' } });
    await call(app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email, turnstileToken: 'good-token' } });
    const mail = await smtp.waitForMessage((m) => m.envelope.to.includes(email) && /reset/i.test(m.subject));
    const res = await call(app, { method: 'POST', url: '/api/auth/reset-password', payload: { token: tokenFrom(mail.text), password: 'fresh password' } });
    expect(res.status).toBe(200);
    await signIn(app, email, 'fresh password');
  });
});
