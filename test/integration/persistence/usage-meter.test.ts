import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PgUsageMeter } from '../../../src/adapters/outbound/persistence/pg-usage-meter.js';
import type { UnitOfWork } from '../../../src/application/ports/unit-of-work.port.js';
import type { UsageReservation } from '../../../src/application/ports/usage-meter.port.js';
import { UsageExhaustedError } from '../../../src/domain/billing/billing.errors.js';
import { dailyUnitsFor } from '../../../src/domain/billing/daily-allowance.js';
import { PURCHASABLE_PLANS, type PurchasablePlan } from '../../../src/domain/billing/purchasable-plan.js';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../../src/domain/billing/subscription.js';
import { planReservation, planSettlement } from '../../../src/domain/billing/units.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';

const { db, uow, pools } = await openTestPersistence();
// A wider system pool than the app's, so 50 reservations really race.
const system = new pg.Pool({ connectionString: db.url, max: 25, options: '-c role=app_system' });
system.on('error', () => {}); // idle clients die when the file's database is dropped
afterAll(() => system.end());

const ADMIN = `admin-${randomBytes(3).toString('hex')}@example.test`;
let now = new Date('2026-06-15T12:00:00Z');
const meter = new PgUsageMeter(system, { adminEmails: [ADMIN], clock: { now: () => now } });

async function subscribe(u: UnitOfWork, userId: UserId, plan: PurchasablePlan, status: SubscriptionStatus = 'active') {
  await u.asSystem((s) =>
    s.subscriptions.insert(`sub_${randomBytes(8).toString('hex')}`, { userId, plan, kind: 'subscription' }, { status, lastEventAt: new Date() }),
  );
}
const stored = async (id: string) =>
  (await pools.owner.query(`select payer, to_char(day, 'YYYY-MM-DD') as day, units, status, settled_units, closed_at is not null as closed from usage_reservations where id = $1`, [id]))
    .rows[0] as { payer: string; day: string; units: number; status: string; settled_units: number | null; closed: boolean } | undefined;
const balance = async (id: string) =>
  (await pools.owner.query('select credits, (select coalesce(sum(used_units), 0)::int from daily_usage where user_id = $1) used from users where id = $1', [id])).rows[0] as { credits: number; used: number };

describe('usage meter: reservation', () => {
  it('when 50 reservations race for 10 remaining units, then exactly 10 succeed', async () => {
    const u = await insertUser(uow);
    await subscribe(uow, u.id, { catalog: 'billing', plan: 'pro' }); // 1000 a day
    await meter.reserve(u.id, 990);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => meter.reserve(u.id, 1)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.every((r) => r.reason instanceof UsageExhaustedError && r.reason.code === 'USAGE_EXHAUSTED')).toBe(true);
    expect(await meter.usage(u.id)).toEqual({ dailyUnits: 1000, used: 1000, remaining: 0, credits: 0 });
  });

  it('when credits pay, then 50 racing reservations spend exactly the credits and never below zero', async () => {
    const u = await insertUser(uow, { credits: 3 }); // no plan: 3 credits = 300 units
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => meter.reserve(u.id, 10)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(30);
    expect(await balance(u.id)).toEqual({ credits: 0, used: 300 });
  });

  it('when there is no plan and no credit, then it refuses with the available units and writes nothing', async () => {
    const u = await insertUser(uow);
    const err = await meter.reserve(u.id, 1).catch((e) => e);
    expect(err).toBeInstanceOf(UsageExhaustedError);
    expect(err.details).toEqual({ requested: 1, available: 0 });
    expect(await balance(u.id)).toEqual({ credits: 0, used: 0 });
  });

  it('when a reservation succeeds, then it is stored open with its payer, day and units; a refused one stores nothing', async () => {
    const u = await insertUser(uow, { credits: 1 });
    const r = await meter.reserve(u.id, 60);
    expect(r).toEqual({ id: expect.any(String), payer: u.id, units: 60, day: '2026-06-15' });
    expect(await stored(r.id)).toEqual({ payer: u.id, day: '2026-06-15', units: 60, status: 'open', settled_units: null, closed: false });
    await expect(meter.reserve(u.id, 41)).rejects.toBeInstanceOf(UsageExhaustedError);
    const rows = await pools.owner.query('select count(*)::int n from usage_reservations where payer = $1', [u.id]);
    expect(rows.rows[0].n).toBe(1);
  });

  it('when the payer does not exist, then it refuses', async () => {
    await expect(meter.reserve('00000000-0000-4000-8000-000000000000' as UserId, 1)).rejects.toBeInstanceOf(UsageExhaustedError);
  });

  it('when a call crosses the daily units, then one credit opens a block of 100 that later calls use', async () => {
    const u = await insertUser(uow, { credits: 2 });
    await subscribe(uow, u.id, { catalog: 'billing', plan: 'starter' }); // 600
    await meter.reserve(u.id, 590);
    await meter.reserve(u.id, 30); // 620: one block opened
    expect(await balance(u.id)).toEqual({ credits: 1, used: 620 });
    await meter.reserve(u.id, 80); // 700: still inside the block
    expect(await balance(u.id)).toEqual({ credits: 1, used: 700 });
    await expect(meter.reserve(u.id, 101)).rejects.toBeInstanceOf(UsageExhaustedError); // would need 2 blocks
    expect(await balance(u.id)).toEqual({ credits: 1, used: 700 });
  });
});

describe('usage meter: settle and release', () => {
  it('when a call used less than reserved, then the difference and unneeded credit blocks come back', async () => {
    const u = await insertUser(uow, { credits: 5 });
    const r = await meter.reserve(u.id, 250); // no plan: 3 credits
    expect(await balance(u.id)).toEqual({ credits: 2, used: 250 });
    await meter.settle(r, 40);
    expect(await balance(u.id)).toEqual({ credits: 4, used: 40 });
  });

  it('when a call used more than reserved, then it is charged as far as credits go and never refused', async () => {
    const u = await insertUser(uow, { credits: 1 });
    const r = await meter.reserve(u.id, 10);
    await meter.settle(r, 450); // needs 5 blocks, 1 held: charges nothing more than exists
    expect(await balance(u.id)).toEqual({ credits: 0, used: 450 });
  });

  it('when a call fails, then release gives everything back', async () => {
    const u = await insertUser(uow, { credits: 2 });
    await subscribe(uow, u.id, { catalog: 'checkout', plan: 'label' }); // 600
    const r = await meter.reserve(u.id, 700);
    expect(await balance(u.id)).toEqual({ credits: 1, used: 700 });
    await meter.release(r);
    expect(await balance(u.id)).toEqual({ credits: 2, used: 0 });
  });

  it('when a reservation is settled or released twice, or released after a settlement, then only the first counts', async () => {
    const u = await insertUser(uow, { credits: 5 });
    const a = await meter.reserve(u.id, 250); // 3 credits
    expect(await meter.settle(a, 40)).toBe(true);
    expect(await balance(u.id)).toEqual({ credits: 4, used: 40 });
    expect(await meter.settle(a, 40)).toBe(false);
    expect(await meter.settle(a, 0)).toBe(false);
    expect(await meter.release(a)).toBe(false);
    expect(await balance(u.id)).toEqual({ credits: 4, used: 40 });
    expect(await stored(a.id)).toMatchObject({ status: 'settled', settled_units: 40, closed: true });
    const b = await meter.reserve(u.id, 100);
    expect(await meter.release(b)).toBe(true);
    expect(await meter.release(b)).toBe(false);
    expect(await meter.settle(b, 100)).toBe(false);
    expect(await balance(u.id)).toEqual({ credits: 4, used: 40 });
    expect(await stored(b.id)).toMatchObject({ status: 'released', settled_units: null, closed: true });
  });

  it("when the caller's copy of a reservation lies about payer, units or day, then the stored ones are used", async () => {
    const u = await insertUser(uow, { credits: 3 });
    const other = await insertUser(uow, { credits: 3 });
    await meter.reserve(other.id, 100);
    const r = await meter.reserve(u.id, 200);
    const forged = { ...r, payer: other.id, units: 1, day: '2026-06-14' };
    await meter.release(forged);
    expect(await balance(u.id)).toEqual({ credits: 3, used: 0 });
    expect(await balance(other.id)).toEqual({ credits: 2, used: 100 });
    expect(await meter.release({ id: 'not-a-uuid' })).toBe(false);
    expect(await meter.settle({ id: '00000000-0000-4000-8000-000000000000' }, 5)).toBe(false);
  });

  it('when 20 settlements and releases of one reservation race, then exactly one closes it', async () => {
    const u = await insertUser(uow, { credits: 5 });
    const r = await meter.reserve(u.id, 250);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? meter.release(r) : meter.settle(r, 40))));
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.findIndex(Boolean);
    expect(await balance(u.id)).toEqual(winner % 2 ? { credits: 5, used: 0 } : { credits: 4, used: 40 });
  });

  it('when random reservations, settlements, releases and repeats run, then balances and stored rows equal the domain rules step by step', async () => {
    const u = await insertUser(uow, { credits: 40 });
    await subscribe(uow, u.id, { catalog: 'billing', plan: 'starter' });
    let model = { dailyUnits: 600, usedToday: 0, allowanceUsedToday: 0, credits: 40 };
    const open: UsageReservation[] = [];
    const closed: { r: UsageReservation; status: 'settled' | 'released'; units: number | null }[] = [];
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let step = 0; step < 300; step++) {
      const dice = rand(6);
      if (closed.length && dice === 0) {
        // a repeat of any earlier close, of either kind: changes nothing
        const c = closed[rand(closed.length)]!;
        const again = rand(2) === 0 ? await meter.release(c.r) : await meter.settle(c.r, rand(c.r.units * 2 + 1));
        expect(again, `step ${step}`).toBe(false);
        expect(await stored(c.r.id), `step ${step}`).toMatchObject({ status: c.status, settled_units: c.units });
      } else if (open.length && dice <= 2) {
        const r = open.splice(rand(open.length), 1)[0]!;
        const release = rand(3) === 0;
        const actual = release ? 0 : rand(r.units * 2 + 1);
        const s = planSettlement(model, r.units, actual);
        model = { ...model, usedToday: s.usedTodayAfter, allowanceUsedToday: s.allowanceUsedTodayAfter, credits: model.credits + s.creditsDelta };
        expect(release ? await meter.release(r) : await meter.settle(r, actual), `step ${step}`).toBe(true);
        closed.push({ r, status: release ? 'released' : 'settled', units: release ? null : actual });
      } else {
        const units = 1 + rand(180);
        const p = planReservation(model, units);
        const got = await meter.reserve(u.id, units).then((r) => (open.push(r), true), (e) => (expect(e).toBeInstanceOf(UsageExhaustedError), false));
        expect(got, `step ${step}`).toBe(p.ok);
        if (p.ok) model = { ...model, usedToday: p.usedTodayAfter, allowanceUsedToday: p.allowanceUsedTodayAfter, credits: p.creditsAfter };
      }
      expect(await balance(u.id), `step ${step}`).toEqual({ credits: model.credits, used: model.usedToday });
    }
    const statuses = await pools.owner.query(`select status, count(*)::int n from usage_reservations where payer = $1 group by 1 order by 1`, [u.id]);
    const count = (st: string) => closed.filter((c) => c.status === st).length;
    expect(statuses.rows).toEqual(
      [{ status: 'open', n: open.length }, { status: 'released', n: count('released') }, { status: 'settled', n: count('settled') }].filter((x) => x.n > 0),
    );
  });
});

describe('usage meter: a plan that changes while reservations are open', () => {
  const setPlan = (userId: string, plan: string, status: SubscriptionStatus) =>
    pools.owner.query(`update subscriptions set plan = $2, status = $3 where user_id = $1`, [userId, plan, status]);
  const allowance = async (userId: string) =>
    (await pools.owner.query(`select coalesce(sum(used_units - credit_units), 0)::int n from daily_usage where user_id = $1`, [userId])).rows[0].n as number;

  it('when a network plan goes past_due while 10,000 units are reserved, then the release refunds no credit that was never charged', async () => {
    const u = await insertUser(uow, { credits: 200 });
    await subscribe(uow, u.id, { catalog: 'checkout', plan: 'network' });
    const r = await meter.reserve(u.id, 10_000); // the whole allowance, no credit
    expect(await balance(u.id)).toEqual({ credits: 200, used: 10_000 });
    await setPlan(u.id, 'network', 'past_due'); // allowance 0 from now on
    expect(await meter.release(r)).toBe(true);
    expect(await balance(u.id)).toEqual({ credits: 200, used: 0 });
    expect(await allowance(u.id)).toBe(0);
  });

  it('when the plan lapses and the call settles to less, then only the units it gives back move, and no credit appears', async () => {
    const u = await insertUser(uow, { credits: 200 });
    await subscribe(uow, u.id, { catalog: 'checkout', plan: 'network' });
    const r = await meter.reserve(u.id, 10_000);
    await setPlan(u.id, 'network', 'past_due');
    expect(await meter.settle(r, 4_000)).toBe(true);
    expect(await balance(u.id)).toEqual({ credits: 200, used: 4_000 });
  });

  it('when the payer upgrades while a credit-paid call is open, then its release or settlement gives back the credits it took', async () => {
    const u = await insertUser(uow, { credits: 10 });
    const released = await meter.reserve(u.id, 500); // no plan: 5 credits
    const settled = await meter.reserve(u.id, 300); // 3 more
    expect(await balance(u.id)).toEqual({ credits: 2, used: 800 });
    await subscribe(uow, u.id, { catalog: 'checkout', plan: 'network' }); // 10,000 units a day from now on
    expect(await meter.release(released)).toBe(true);
    expect(await balance(u.id)).toEqual({ credits: 7, used: 300 });
    expect(await meter.settle(settled, 120)).toBe(true); // 120 credit-paid units: 2 blocks
    expect(await balance(u.id)).toEqual({ credits: 8, used: 120 });
    const next = await meter.reserve(u.id, 1_000); // now from the new allowance
    expect(await balance(u.id)).toEqual({ credits: 8, used: 1_120 });
    // units given back come off the credit-paid ones first: the 120 left now sit in the allowance
    // this call had taken, so no credit is held for them (as with a plan unchanged all day)
    expect(await meter.release(next)).toBe(true);
    expect(await balance(u.id)).toEqual({ credits: 10, used: 120 });
  });

  it('when plans change at random between reservations and closings, then balances equal the domain rules and no credit is made or lost', async () => {
    const start = 60;
    const u = await insertUser(uow, { credits: start });
    await subscribe(uow, u.id, { catalog: 'checkout', plan: 'label' });
    const plans = [
      { plan: 'label', status: 'active', daily: 600 },
      { plan: 'network', status: 'active', daily: 10_000 },
      { plan: 'solo', status: 'past_due', daily: 0 },
      { plan: 'solo', status: 'trialing', daily: 1_000 },
    ] as const;
    let model = { dailyUnits: 600, usedToday: 0, allowanceUsedToday: 0, credits: start };
    let waived = 0;
    const open: UsageReservation[] = [];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let step = 0; step < 200; step++) {
      const dice = rand(7);
      if (dice === 0) {
        const p = plans[rand(plans.length)]!;
        await setPlan(u.id, p.plan, p.status);
        model = { ...model, dailyUnits: p.daily };
      } else if (open.length && dice <= 3) {
        const r = open.splice(rand(open.length), 1)[0]!;
        const actual = rand(3) === 0 ? 0 : rand(r.units * 2 + 1);
        const s = planSettlement(model, r.units, actual);
        model = { ...model, usedToday: s.usedTodayAfter, allowanceUsedToday: s.allowanceUsedTodayAfter, credits: model.credits + s.creditsDelta };
        waived += s.waivedCredits;
        expect(actual === 0 ? await meter.release(r) : await meter.settle(r, actual), `step ${step}`).toBe(true);
      } else {
        const units = 1 + rand(900);
        const p = planReservation(model, units);
        const got = await meter.reserve(u.id, units).then((r) => (open.push(r), true), () => false);
        expect(got, `step ${step}`).toBe(p.ok);
        if (p.ok) model = { ...model, usedToday: p.usedTodayAfter, allowanceUsedToday: p.allowanceUsedTodayAfter, credits: p.creditsAfter };
      }
      expect(await balance(u.id), `step ${step}`).toEqual({ credits: model.credits, used: model.usedToday });
      expect(await allowance(u.id), `step ${step}`).toBe(model.allowanceUsedToday);
      // the credits spent are always the blocks of credit-paid units, less what was waived
      expect(start - model.credits, `step ${step}`).toBe(Math.ceil((model.usedToday - model.allowanceUsedToday) / 100) - waived);
    }
    for (const r of open) expect(await meter.release(r)).toBe(true);
    const settledBeyond = (await balance(u.id)).used - (await allowance(u.id));
    expect((await balance(u.id)).credits).toBe(start - Math.ceil(settledBeyond / 100) + waived);
  });
});

describe('usage meter: days, plans, admins', () => {
  it('when the UTC day changes, then the daily units are whole again; a late settlement lands on its own day', async () => {
    now = new Date('2026-06-15T23:59:59Z');
    const u = await insertUser(uow);
    await subscribe(uow, u.id, { catalog: 'billing', plan: 'starter' });
    const late = await meter.reserve(u.id, 600);
    await expect(meter.reserve(u.id, 1)).rejects.toBeInstanceOf(UsageExhaustedError);
    now = new Date('2026-06-16T00:00:00Z');
    expect(await meter.usage(u.id)).toEqual({ dailyUnits: 600, used: 0, remaining: 600, credits: 0 });
    await meter.reserve(u.id, 5);
    await meter.settle(late, 100);
    expect(await meter.usage(u.id)).toMatchObject({ used: 5, remaining: 595 });
    const days = await pools.owner.query(`select day::text, used_units from daily_usage where user_id = $1 order by day`, [u.id]);
    expect(days.rows).toEqual([{ day: '2026-06-15', used_units: 100 }, { day: '2026-06-16', used_units: 5 }]);
    now = new Date('2026-06-15T12:00:00Z');
  });

  it('when the payer holds several subscriptions, then the best subscribed plan gives the daily units, as the domain says', async () => {
    const statuses: SubscriptionStatus[] = ['active', 'past_due', 'trialing', 'canceled'];
    for (let i = 0; i < PURCHASABLE_PLANS.length; i++) {
      const u = await insertUser(uow);
      const subs = [
        { plan: PURCHASABLE_PLANS[i]!, status: statuses[i % statuses.length]! },
        { plan: PURCHASABLE_PLANS[(i + 3) % PURCHASABLE_PLANS.length]!, status: SUBSCRIPTION_STATUSES[i % SUBSCRIPTION_STATUSES.length]! },
      ];
      for (const s of subs) await subscribe(uow, u.id, s.plan, s.status);
      expect((await meter.usage(u.id)).dailyUnits, JSON.stringify(subs)).toBe(dailyUnitsFor(subs, false));
    }
  });

  it('when the payer is an admin without a plan, then they get the top plan\'s daily units', async () => {
    const u = await insertUser(uow, { email: ADMIN.toUpperCase(), emailVerified: true });
    expect(await meter.usage(u.id)).toEqual({ dailyUnits: 10_000, used: 0, remaining: 10_000, credits: 0 });
    await meter.reserve(u.id, 9_000);
    // settling reads the admin's allowance too: nothing charged within it
    expect(await balance(u.id)).toEqual({ credits: 0, used: 9_000 });
  });

  it('when the payer holds an ADMIN_EMAILS address not verified, then no admin units: reserving, settling and the snapshot agree', async () => {
    const admin = `unverified-${ADMIN}`;
    const unverifiedMeter = new PgUsageMeter(system, { adminEmails: [admin], clock: { now: () => now } });
    const u = await insertUser(uow, { email: admin, credits: 1 });
    expect(await unverifiedMeter.usage(u.id)).toEqual({ dailyUnits: 0, used: 0, remaining: 0, credits: 1 });
    await expect(unverifiedMeter.reserve(u.id, 101)).rejects.toBeInstanceOf(UsageExhaustedError);
    const r = await unverifiedMeter.reserve(u.id, 50); // paid by the one credit, not by admin units
    expect(await balance(u.id)).toEqual({ credits: 0, used: 50 });
    await unverifiedMeter.settle(r, 40);
    expect(await balance(u.id)).toEqual({ credits: 0, used: 40 });
    await pools.owner.query('update users set email_verified_at = now() where id = $1', [u.id]);
    expect(await unverifiedMeter.usage(u.id)).toMatchObject({ dailyUnits: 10_000, used: 40 });
  });
});

describe('usage meter: a reservation committed without waiting for the disk', () => {
  it('when a reservation was lost with the database (its commit not yet flushed), then its settlement stores it settled and charges the call exactly once; a release changes nothing', async () => {
    const u = await insertUser(uow, { credits: 2 });
    await subscribe(uow, u.id, { catalog: 'billing', plan: 'starter' }); // 600 a day
    // what the process holds of a reservation the crash took back, units and all
    const lost: UsageReservation = { id: randomUUID(), payer: u.id, units: 300, day: '2026-06-15' };
    expect(await meter.release(lost)).toBe(false); // a failed call: nothing was taken, nothing to give back
    expect(await stored(lost.id)).toBeUndefined();
    const results = await Promise.all(Array.from({ length: 10 }, () => meter.settle(lost, 650)));
    expect(results.filter(Boolean)).toHaveLength(1);
    // 600 from the day's allowance, 50 beyond it: one credit's block
    expect(await balance(u.id)).toEqual({ credits: 1, used: 650 });
    expect(await stored(lost.id)).toEqual({ payer: u.id, day: '2026-06-15', units: 300, status: 'settled', settled_units: 650, closed: true });
    expect(await meter.settle(lost, 650)).toBe(false);
    expect(await meter.release(lost)).toBe(false);
    expect(await balance(u.id)).toEqual({ credits: 1, used: 650 });
  });

  it('when a reservation was released by the stale sweep, then a late settlement with the whole copy still changes nothing', async () => {
    const u = await insertUser(uow, { credits: 5 });
    const r = await meter.reserve(u.id, 250);
    expect(await meter.releaseStale(r, new Date(now.getTime() + 1))).toBe(true);
    expect(await meter.settle(r, 40)).toBe(false);
    expect(await balance(u.id)).toEqual({ credits: 5, used: 0 });
  });

  it('when a reservation commits, then only its own transaction skipped the wait: the connection still commits synchronously', async () => {
    // Its sessions start with the setting on whatever the server's default (the embedded test cluster's is off).
    const one = new pg.Pool({ connectionString: db.url, max: 1, options: '-c role=app_system -c synchronous_commit=on' });
    one.on('error', () => {});
    try {
      const u = await insertUser(uow, { credits: 1 });
      await new PgUsageMeter(one, { adminEmails: [], clock: { now: () => now } }).reserve(u.id, 10);
      expect((await one.query('SHOW synchronous_commit')).rows[0].synchronous_commit).toBe('on');
    } finally {
      await one.end();
    }
  });
});

describe('usage meter: the reservation and the chat access in one statement', () => {
  it('when a chat call reserves, then the same statement reads what the hot read of its access reads; a refusal is returned, not thrown', async () => {
    const u = await insertUser(uow);
    await subscribe(uow, u.id, { catalog: 'checkout', plan: 'label' }); // 600 a day
    await subscribe(uow, u.id, { catalog: 'checkout', plan: 'network' }, 'canceled');
    await pools.owner.query(`insert into byok_keys (user_id, provider, key_id, ciphertext) values ($1, 'openai', 'k1', '\\x00'), ($1, 'google', 'k2', '\\x00')`, [u.id]);
    const hot = await uow.readAsUser(u.id, 'chatAccess');
    const sortAccess = (a: typeof hot) => ({ subscriptions: [...a.subscriptions].sort((x, y) => x.processorId.localeCompare(y.processorId)), byokProviders: [...a.byokProviders].sort() });

    const first = await meter.reserveWithChatAccess(u.id, 500); // the day's row is created on the way
    expect(first.taken).toEqual({ id: expect.any(String), payer: u.id, units: 500, day: '2026-06-15' });
    expect(sortAccess(first.chatAccess)).toEqual(sortAccess(hot));
    expect(first.chatAccess.subscriptions).toHaveLength(2);

    const refused = await meter.reserveWithChatAccess(u.id, 200);
    expect(refused.taken).toBeInstanceOf(UsageExhaustedError);
    expect(sortAccess(refused.chatAccess)).toEqual(sortAccess(hot));
    expect(await balance(u.id)).toEqual({ credits: 0, used: 500 });
    expect(await meter.settle(first.taken as UsageReservation, 10)).toBe(true);
    expect(await balance(u.id)).toEqual({ credits: 0, used: 10 });
  });

  it('says what the payer can still reserve after the statement: allowance, the credit block begun, then credits (decision 0374)', async () => {
    const u = await insertUser(uow, { credits: 2 });
    await subscribe(uow, u.id, { catalog: 'checkout', plan: 'label' }); // 600 a day, then 2 credits = 200 units
    const first = await meter.reserveWithChatAccess(u.id, 550);
    expect(first.available).toBe(250);
    const second = await meter.reserveWithChatAccess(u.id, 130); // 50 of the day, 80 of a credit block begun
    expect(second.available).toBe(120);
    const refused = await meter.reserveWithChatAccess(u.id, 121);
    expect(refused.taken).toBeInstanceOf(UsageExhaustedError);
    expect(refused.available).toBe(120);
    const last = await meter.reserveWithChatAccess(u.id, 120);
    expect(last.available).toBe(0);
    expect(await balance(u.id)).toEqual({ credits: 0, used: 800 });
  });

  it('when the payer has nothing, then the access is empty and the refusal says so', async () => {
    const u = await insertUser(uow);
    const r = await meter.reserveWithChatAccess(u.id, 1);
    expect(r.taken).toBeInstanceOf(UsageExhaustedError);
    expect(r.chatAccess).toEqual({ subscriptions: [], byokProviders: [] });
  });
});
