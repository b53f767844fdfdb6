import { afterAll, describe, expect, it } from 'vitest';
import { RESERVATION_LEASE_SETTINGS } from '../../../src/application/ports/reservation-lease-settings.port.js';
import { startFakeFleet } from '../../support/ai/fake-ai-fleet.js';
import { chat, hi, patientBreakers } from '../../support/ai/chat-fixtures.js';
import { subscribeOn } from '../../support/faults/fault-services.js';
import { startOwnPostgres } from '../../support/faults/own-postgres.js';
import { sleep } from '../../support/polling.js';
import { signUpAndIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/*
 * The fault: PostgreSQL stops while a metered call is at its provider, so the settlement that
 * follows the answer meets no database. It must be retried once the database answers again, and
 * the call charged exactly once, not left open until the stale sweep releases it for nothing.
 *
 * The service runs in-process on a PostgreSQL of the test's own; retries are every 100 ms to 400 ms.
 */
const pgs = await startOwnPostgres();
const fleet = await startFakeFleet();
const { app } = await startTestApp({
  databaseUrl: pgs.url,
  env: { ...fleet.env, RATE_LIMIT_CHAT: '10000' },
  override: (c) => {
    patientBreakers(c);
    c.register(RESERVATION_LEASE_SETTINGS, { useValue: { renewEveryMs: 60_000, retryMs: 100, maxRetryMs: 400, giveUpAfterMs: 600_000 } });
  },
});
afterAll(async () => {
  await app.close();
  await fleet.close();
  await pgs.destroy();
});

const reservations = (userId: string) => pgs.query(`select status, units, settled_units from usage_reservations where payer = $1`, [userId]);
const used = async (userId: string) => (await pgs.query(`select coalesce(sum(used_units), 0)::int as n from daily_usage where user_id = $1`, [userId]))[0].n;

describe('a settlement that meets a database outage', () => {
  it('when PostgreSQL is down as the answer comes back, then the settlement is retried when it returns and charged exactly once', async () => {
    const user = await signUpAndIn(app);
    const sub = await subscribeOn(pgs, user.id, 'network');
    // the provider takes 3 s: long enough to stop the database while it works
    fleet.setAll({ kind: 'slow', delayMs: 3_000 });
    const answer = chat(app, user, { plan: 'network', subscription: sub, body: { messages: hi, model: 'openai/gpt-4o' } });
    // prompt + 1,024 max_tokens
    await expect.poll(() => reservations(user.id), { timeout: 2_000, interval: 20 }).toEqual([{ status: 'open', units: 2, settled_units: null }]);
    await pgs.stop();

    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.usage).toMatchObject({ totalTokens: 16 }); // the fake's counts: 1 unit
    await sleep(1_000); // several attempts fail meanwhile
    await pgs.start();

    await expect.poll(() => reservations(user.id), { timeout: 15_000, interval: 200 }).toEqual([{ status: 'settled', units: 2, settled_units: 1 }]);
    expect(await used(user.id)).toBe(1);
    await sleep(1_000); // no later attempt charges it again
    expect(await used(user.id)).toBe(1);
  }, 60_000);
});
