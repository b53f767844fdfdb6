import { describe, expect, it } from 'vitest';
import { subscribe } from '../support/ai/chat-fixtures.js';
import { call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

const { app, infra } = await startTestApp({ env: { RATE_LIMIT_AGENTS: '100000' } });
const callSkill = (user: SignedIn, slug: string, payload: object) => call(app, { method: 'POST', url: `/api/skills/${slug}`, headers: user.headers, payload });

describe('stateful skills over HTTP', () => {
  it('when event-scheduler and booking-settlement are called, then success bodies, 400, 404 and 409 come back as the spec and docs/skills.md say', async () => {
    const alice = await signUpAndIn(app);
    const bob = await signUpAndIn(app);
    await subscribe(infra.pools.owner, alice.id, 'label');
    const ok = await callSkill(alice, 'event-scheduler', { action: 'schedule', title: 'Show', date: '2027-03-01', time: '21:30', channels: ['email'] });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, event: { title: 'Show', date: '2027-03-01' } });
    const bad = await callSkill(alice, 'event-scheduler', { action: 'schedule', title: 'Show', date: '2027-02-30', time: '21:30', channels: [] });
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect((await callSkill(alice, 'event-scheduler', { action: 'list' })).body).toMatchObject({ success: true, count: 1 });
    expect((await callSkill(bob, 'event-scheduler', { action: 'list' })).body).toMatchObject({ success: true, count: 0 });

    const esc = await callSkill(alice, 'booking-settlement', { action: 'create_escrow', bookingId: 'b1', booking: { guarantee: 100, backend: 0.5, deposit: 0 } });
    expect(esc).toMatchObject({ status: 200, body: { success: true, escrow: { amountCents: 10050 } } });
    expect(await callSkill(alice, 'booking-settlement', { action: 'create_escrow', bookingId: 'b1', booking: { guarantee: 1, backend: 0, deposit: 0 } })).toMatchObject({ status: 409, body: { code: 'ESCROW_EXISTS' } });
    expect(await callSkill(bob, 'booking-settlement', { action: 'get', bookingId: 'b1' })).toMatchObject({ status: 404 });
    expect(await callSkill(alice, 'treasury', { action: 'wallet_balance' })).toMatchObject({ status: 501, body: { code: 'NOT_CONFIGURED' } });
    expect(await callSkill(alice, 'webhook', { action: 'send', url: 'http://127.0.0.1:9/', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', data: {} })).toMatchObject({ status: 400, body: { code: 'WEBHOOK_TARGET_REFUSED' } });
  });
});
