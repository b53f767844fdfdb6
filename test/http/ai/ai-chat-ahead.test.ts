import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { requireModel } from '../../../src/domain/ai/model-catalog.js';
import { reservationUnits } from '../../../src/domain/ai/usage-estimate.js';
import { startFakeFleet } from '../../support/ai/fake-ai-fleet.js';
import { chat, hi, patientBreakers, reservationsOf, subscribe, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { signUpAndIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/*
 * Decision 0374: a payer whose allowance, as this process last read it, covers a call has the
 * provider called beside the reservation. The attacks: a stale view (the units spent elsewhere, as
 * by another process), calls racing the last units, a reservation refused after the provider has
 * answered. Each must answer exactly as without the early call, and charge nothing it did not answer.
 */
const fleet = await startFakeFleet(['openai']);
afterAll(() => fleet.close());
const { app, container, infra } = await startTestApp({ env: { ...fleet.env, RATE_LIMIT_CHAT: '10000' }, override: patientBreakers });
const owner = infra.pools.owner;
const openai = fleet.server('openai');

const MODEL = 'openai/gpt-4o-mini';
/** A model of the network level only, on the same provider. */
const NETWORK_MODEL = 'openai/gpt-4o';
const body = { messages: hi, model: MODEL, max_tokens: 1500 };
/** What each call reserves. */
const UNITS = reservationUnits(hi, 1500, requireModel(MODEL).contextWindow);
const LABEL_DAILY = 600;

beforeEach(() => {
  fleet.setAll({ kind: 'reply' });
  openai.requests.length = 0;
});

/** A label subscriber who has made two calls: the second left this process a view of their allowance. */
async function regular() {
  const user = await signUpAndIn(app);
  const sub = await subscribe(owner, user.id, 'label');
  for (let i = 0; i < 2; i++) expect((await chat(app, user, { plan: 'label', subscription: sub, body })).status).toBe(200);
  await unitsUsed(container, user.id);
  openai.requests.length = 0;
  return { user, sub };
}

/** The day's units used, set directly: as calls answered by another process would leave them. */
const setUsed = (userId: string, used: number) =>
  owner.query(`update daily_usage set used_units = $2 where user_id = $1 and day = (now() at time zone 'utc')::date`, [userId, used]);

describe('POST /api/ai/chat, the provider called beside the reservation', () => {
  it('with the view covering the call: the provider is called, the call answered and charged as usual', async () => {
    const { user, sub } = await regular();
    const res = await chat(app, user, { plan: 'label', subscription: sub, body });
    expect(res.status).toBe(200);
    expect(res.body.message.content).toBe('Hello, world!');
    expect((await unitsUsed(container, user.id)).used).toBe(3);
    expect((await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled', 'settled', 'settled']);
  });

  it('a stale view (the units spent elsewhere): the provider call is aborted, 429 USAGE_EXHAUSTED as ever, nothing charged', async () => {
    const { user, sub } = await regular();
    await setUsed(user.id, LABEL_DAILY);
    openai.setBehaviour({ kind: 'slow', delayMs: 5_000 });
    const started = Date.now();
    const res = await reachingTheProviderFirst(user.id, () => chat(app, user, { plan: 'label', subscription: sub, body }));
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('USAGE_EXHAUSTED');
    expect(Date.now() - started).toBeLessThan(3_000);
    // the early call reached the provider (the view was stale) and was cut off, not waited for
    expect(openai.requests).toHaveLength(1);
    await openai.requests[0]!.closed;
    expect(openai.requests[0]!.closedByClient).toBe(true);
    expect(await unitsUsed(container, user.id)).toEqual({ used: LABEL_DAILY, credits: 0 });
    expect(await reservationsOf(owner, user.id)).toHaveLength(2);
  });

  it('a payer this process has seen exhausted never reaches the provider, JSON or streamed', async () => {
    const { user, sub } = await regular();
    await setUsed(user.id, LABEL_DAILY);
    // the refusal that corrects the view (its early call dropped, as above)
    expect((await reachingTheProviderFirst(user.id, () => chat(app, user, { plan: 'label', subscription: sub, body }))).status).toBe(429);
    openai.requests.length = 0;
    for (const headers of [{}, { accept: 'text/event-stream' }, {}] as Record<string, string>[]) {
      const res = await chat(app, user, { plan: 'label', subscription: sub, body, headers });
      expect(res.status).toBe(429);
    }
    expect(openai.requests).toEqual([]);
    expect(await unitsUsed(container, user.id)).toEqual({ used: LABEL_DAILY, credits: 0 });
  });

  it('concurrent calls racing the last units on a stale view: only the reserved ones are answered; the others 429, never charged', async () => {
    const { user, sub } = await regular();
    // two calls' worth left, while this process still believes in almost the whole day
    await setUsed(user.id, LABEL_DAILY - 2 * UNITS);
    // each answered call uses all it reserved: no settlement gives units back for a third
    openai.setBehaviour({ kind: 'reply', usage: { prompt: 500, completion: UNITS * 1000 - 500 } });
    // the reservations wait on the payer's row until every call has reached the provider
    const db = await owner.connect();
    let results: Awaited<ReturnType<typeof chat>>[];
    try {
      await db.query('begin');
      await db.query('select 1 from users where id = $1 for update', [user.id]);
      const calls = Array.from({ length: 6 }, (_, i) => chat(app, user, { plan: 'label', subscription: sub, body, headers: i % 2 ? { accept: 'text/event-stream' } : {} }));
      // the view covered them all: every one called the provider beside its reservation
      await until(() => openai.requests.length === 6);
      await db.query('commit');
      results = await Promise.all(calls);
    } finally {
      db.release();
    }
    const answered = results.filter((r) => r.status === 200);
    expect(answered).toHaveLength(2);
    expect(results.filter((r) => r.status === 429 && r.body.code === 'USAGE_EXHAUSTED')).toHaveLength(4);
    for (const r of results.filter((x) => x.status === 429)) expect(JSON.stringify(r.body)).not.toContain('Hello');
    // the two answered settled to what they used, the refused ones never stored (read after the
    // meter's drain: a settlement is written beside the answer, not awaited by it)
    expect(await unitsUsed(container, user.id)).toEqual({ used: LABEL_DAILY, credits: 0 });
    const mine = await reservationsOf(owner, user.id);
    expect(mine.filter((r) => r.status === 'settled')).toHaveLength(4);
    expect(mine.filter((r) => r.status !== 'settled')).toEqual([]);
  });

  it('a subscription lapsed since the view was read: the provider call is aborted, 402 as ever, nothing charged', async () => {
    const { user, sub } = await regular();
    await owner.query(`update subscriptions set status = 'canceled' where processor_subscription_id = $1`, [sub]);
    openai.setBehaviour({ kind: 'slow', delayMs: 5_000 });
    const res = await reachingTheProviderFirst(user.id, () => chat(app, user, { plan: 'label', subscription: sub, body, headers: { accept: 'text/event-stream' } }));
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('SUBSCRIPTION_REQUIRED');
    expect(openai.requests).toHaveLength(1);
    await openai.requests[0]!.closed;
    expect(openai.requests[0]!.closedByClient).toBe(true);
    expect(await unitsUsed(container, user.id)).toEqual({ used: 2, credits: 0 });
    expect((await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled', 'settled']); // the plan's units went with it: nothing taken
    // refused: forgotten, so the next call waits for its checks before any provider call
    openai.requests.length = 0;
    expect((await chat(app, user, { plan: 'label', subscription: sub, body })).status).toBe(402);
    expect(openai.requests).toEqual([]);
  });

  it('a label subscriber asking for the network level and one of its models: 402 and no provider call, even while the reservation waits', async () => {
    const { user, sub } = await regular();
    const { result: res, early } = await whileTheReservationWaits(user.id, () => chat(app, user, { plan: 'network', subscription: sub, body: { ...body, model: NETWORK_MODEL } }));
    expect(early).toBe(0);
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('SUBSCRIPTION_REQUIRED');
    expect(openai.requests).toEqual([]);
    // the reservation taken with the checks is given back: nothing charged
    expect(await unitsUsed(container, user.id)).toEqual({ used: 2, credits: 0 });
    expect((await reservationsOf(owner, user.id)).filter((r) => r.status !== 'released').map((r) => r.status)).toEqual(['settled', 'settled']);
  });

  it('a level above the one this process last confirmed for the payer waits for its checks once; then it, and the levels below it, call the provider early', async () => {
    const user = await signUpAndIn(app);
    const sub = await subscribe(owner, user.id, 'network');
    for (let i = 0; i < 2; i++) expect((await chat(app, user, { plan: 'label', subscription: sub, body })).status).toBe(200);
    openai.requests.length = 0;
    const network = { plan: 'network', subscription: sub, body: { ...body, model: NETWORK_MODEL } };
    const waited = await whileTheReservationWaits(user.id, () => chat(app, user, network));
    expect({ status: waited.result.status, early: waited.early, requests: openai.requests.length }).toEqual({ status: 200, early: 0, requests: 1 });
    openai.requests.length = 0;
    expect((await reachingTheProviderFirst(user.id, () => chat(app, user, network))).status).toBe(200);
    openai.requests.length = 0;
    expect((await reachingTheProviderFirst(user.id, () => chat(app, user, { plan: 'label', subscription: sub, body }))).status).toBe(200);
  });

  for (const mode of ['json', 'stream'] as const) {
    it(`a reservation refused after the provider answered delivers nothing and charges nothing (${mode})`, async () => {
      const { user, sub } = await regular();
      const db = await owner.connect();
      try {
        // the reservation waits on the payer's row while the provider answers
        await db.query('begin');
        await db.query('select 1 from users where id = $1 for update', [user.id]);
        const pending = chat(app, user, { plan: 'label', subscription: sub, body, headers: mode === 'stream' ? { accept: 'text/event-stream' } : {} });
        await until(() => openai.requests.length === 1 && openai.requests[0]!.ended);
        expect(openai.requests[0]!.closedByClient).toBe(false); // answered in full
        await db.query(`update daily_usage set used_units = $2 where user_id = $1 and day = (now() at time zone 'utc')::date`, [user.id, LABEL_DAILY]);
        await db.query('commit');
        const res = await pending;
        expect(res.status).toBe(429);
        expect(res.body.code).toBe('USAGE_EXHAUSTED');
        expect(res.headers['content-type']).toContain('application/json');
        expect(JSON.stringify(res.body)).not.toContain('Hello');
      } finally {
        db.release();
      }
      expect(await unitsUsed(container, user.id)).toEqual({ used: LABEL_DAILY, credits: 0 });
      expect(await reservationsOf(owner, user.id)).toHaveLength(2);
    });
  }
});

/**
 * Runs `call` with the payer's row locked until its early provider call has reached the provider:
 * its reservation waits meanwhile, so a refusal cannot come back before the request was even sent.
 */
async function reachingTheProviderFirst<T>(userId: string, call: () => Promise<T>): Promise<T> {
  const db = await owner.connect();
  try {
    await db.query('begin');
    await db.query('select 1 from users where id = $1 for update', [userId]);
    const answer = call();
    await until(() => openai.requests.length === 1);
    await db.query('commit');
    return await answer;
  } finally {
    db.release();
  }
}

/**
 * Runs `call` with the payer's row locked until its reservation's statement waits on it, and a
 * moment longer: an early provider call, had one been started, would have reached the provider
 * meanwhile (it is sent beside that statement). `early`: the provider requests seen by then.
 */
async function whileTheReservationWaits<T>(userId: string, call: () => Promise<T>): Promise<{ result: T; early: number }> {
  const db = await owner.connect();
  try {
    await db.query('begin');
    await db.query('select 1 from users where id = $1 for update', [userId]);
    const answer = call();
    await expect.poll(async () => (await owner.query(`select count(*)::int n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).rows[0].n, { interval: 10 }).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    const early = openai.requests.length;
    await db.query('commit');
    return { result: await answer, early };
  } finally {
    db.release();
  }
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
