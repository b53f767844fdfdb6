import { describe, expect, it } from 'vitest';
import { call, lastMailTo, signUpAndIn, tokenFrom, uniqueEmail } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/** POST /api/auth/resend-verification: public, rate-limited per IP, and says nothing about the account. */
const t = await startTestApp();
const { app } = t;
const owner = t.infra.pools.owner;
const resend = (email: unknown) => call(app, { method: 'POST', url: '/api/auth/resend-verification', payload: { email } });
const mails = async (to: string) => (await owner.query(`select count(*)::int n from outbox where topic = 'mail' and payload->>'to' = $1`, [to])).rows[0].n as number;

describe('POST /api/auth/resend-verification', () => {
  it('when the address is not verified yet, then a new verification mail is written and its link verifies the address', async () => {
    const u = await signUpAndIn(app);
    const res = await resend(u.email);
    expect(res.status).toBe(200);
    expect(await mails(u.email)).toBe(2);
    const mail = (await lastMailTo(owner, u.email))!;
    expect((await call(app, { method: 'GET', url: `/api/auth/verify-email?token=${encodeURIComponent(tokenFrom(mail.text))}` })).status).toBe(200);
  });

  it('the answer is the same whether the account exists, is verified or not; only an unverified one gets mail', async () => {
    const unverified = await signUpAndIn(app);
    const verified = await signUpAndIn(app);
    await call(app, { method: 'GET', url: `/api/auth/verify-email?token=${encodeURIComponent(tokenFrom((await lastMailTo(owner, verified.email))!.text))}` });
    const nobody = uniqueEmail('nobody');
    const answers = await Promise.all([resend(unverified.email), resend(verified.email), resend(nobody)]);
    for (const a of answers) expect({ status: a.status, body: a.body }).toEqual({ status: answers[0]!.status, body: answers[0]!.body });
    expect(answers[0]!.status).toBe(200);
    expect(await mails(unverified.email)).toBe(2);
    expect(await mails(verified.email)).toBe(1);
    expect(await mails(nobody)).toBe(0);
  });

  it('when the e-mail is missing or malformed, then 400 VALIDATION_ERROR and no mail', async () => {
    const before = (await owner.query(`select count(*)::int n from outbox where topic = 'mail'`)).rows[0].n;
    for (const email of [undefined, 'not-an-email', 42, 'a'.repeat(300) + '@example.test']) {
      const res = await resend(email);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await owner.query(`select count(*)::int n from outbox where topic = 'mail'`)).rows[0].n).toBe(before);
  });

  it('when an IP exceeds RATE_LIMIT_AUTH per minute, then 429 with retry-after', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_AUTH: '2' } });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 3; i++) {
      last = await call(limited.app, { method: 'POST', url: '/api/auth/resend-verification', payload: { email: uniqueEmail() } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(last!.headers['retry-after']).toBeDefined();
  });
});
