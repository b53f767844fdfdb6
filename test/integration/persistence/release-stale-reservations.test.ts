import { describe, expect, it } from 'vitest';
import {
  RELEASE_STALE_RESERVATIONS,
  RELEASE_STALE_RESERVATIONS_CRON,
  releaseStaleReservationsHandler,
} from '../../../src/adapters/inbound/jobs/release-stale-reservations.handler.js';
import { PgUsageMeter } from '../../../src/adapters/outbound/persistence/pg-usage-meter.js';
import { MAINTENANCE_QUEUE } from '../../../src/adapters/outbound/queue/pg-boss-queue.js';
import { ReleaseStaleReservations } from '../../../src/application/billing/release-stale-reservations.use-case.js';
import { ManualClock } from '../../fakes/manual-clock.js';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';

const { pools, uow, queue } = await openTestPersistence({ work: true });
await queue.work();
const STALE_MS = 600_000;
const clock = new ManualClock(Date.parse('2026-06-15T12:00:00Z'));
const meter = new PgUsageMeter(pools.system, { adminEmails: [], clock });
const warnings: object[] = [];
const sweep = () =>
  new ReleaseStaleReservations(meter, clock, { staleAfterMs: STALE_MS, batchSize: 3 }, { debug() {}, info() {}, warn: (o) => warnings.push(o), error() {} });

const status = async (id: string) => (await pools.owner.query('select status from usage_reservations where id = $1', [id])).rows[0]?.status;
const balance = async (id: string) =>
  (await pools.owner.query('select credits, (select coalesce(sum(used_units), 0)::int from daily_usage where user_id = $1) used from users where id = $1', [id])).rows[0];

describe('releasing stale reservations', () => {
  it('when a reservation stays open past the bound, then the sweep releases it and gives the units back; a fresh one stays', async () => {
    const u = await insertUser(uow, { credits: 5 });
    const old = await meter.reserve(u.id, 250); // 3 credits
    clock.advance(STALE_MS - 60_000);
    const fresh = await meter.reserve(u.id, 10); // inside the open block
    clock.advance(60_001);
    expect(await sweep().execute()).toEqual({ released: 1 });
    expect(await status(old.id)).toBe('released');
    expect(await status(fresh.id)).toBe('open');
    expect(await balance(u.id)).toEqual({ credits: 4, used: 10 });
    expect(warnings).toContainEqual({ reservation: old });
    // the call that crashed cannot come back and charge it: a late settlement changes nothing
    expect(await meter.settle(old, 250)).toBe(false);
    expect(await balance(u.id)).toEqual({ credits: 4, used: 10 });
    expect(await sweep().execute()).toEqual({ released: 0 });
    expect(await meter.settle(fresh, 5)).toBe(true);
  });

  it('when the call holding a reservation renews its lease, then no sweep releases it however old it is; once renewals stop, the next sweep past the bound does', async () => {
    const u = await insertUser(uow, { credits: 5 });
    const r = await meter.reserve(u.id, 150); // 2 credits
    for (let i = 0; i < 3; i++) {
      clock.advance(STALE_MS - 1_000);
      expect(await meter.renew([r.id, 'not-a-uuid'])).toBe(1);
      clock.advance(2_000); // created (and last renewed, before this round) more than the bound ago
      expect(await sweep().execute()).toEqual({ released: 0 });
      expect(await status(r.id)).toBe('open');
    }
    clock.advance(STALE_MS);
    expect(await sweep().execute()).toEqual({ released: 1 });
    expect(await balance(u.id)).toEqual({ credits: 5, used: 0 });
    expect(await meter.renew([r.id])).toBe(0); // a closed reservation is not renewed
  });

  it('when a renewal lands between the sweep reading a stale reservation and releasing it, then it stays open', async () => {
    const u = await insertUser(uow, { credits: 5 });
    const r = await meter.reserve(u.id, 50);
    clock.advance(STALE_MS + 1);
    const cutoff = new Date(clock.now().getTime() - STALE_MS);
    expect((await meter.openBefore(cutoff, 1000)).map((x) => x.id)).toContain(r.id);
    await meter.renew([r.id]);
    expect(await meter.releaseStale(r, cutoff)).toBe(false);
    expect(await status(r.id)).toBe('open');
    expect(await meter.settle(r, 20)).toBe(true);
  });

  it('when several sweeps run at once over more than a batch, then each stale reservation is released exactly once', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => insertUser(uow, { credits: 10 })));
    const stale = [];
    for (const u of users) for (let i = 0; i < 2; i++) stale.push(await meter.reserve(u.id, 150));
    clock.advance(STALE_MS + 1);
    const runs = await Promise.all(Array.from({ length: 5 }, () => sweep().execute()));
    expect(runs.reduce((n, r) => n + r.released, 0)).toBe(stale.length);
    for (const r of stale) expect(await status(r.id)).toBe('released');
    for (const u of users) expect(await balance(u.id)).toEqual({ credits: 10, used: 0 });
  });

  it('when the scheduled job runs, then its handler runs the sweep; the schedule is declared once per kind', async () => {
    const u = await insertUser(uow, { credits: 1 });
    const r = await meter.reserve(u.id, 50);
    clock.advance(STALE_MS + 1);
    let runs = 0;
    const handler = releaseStaleReservationsHandler({ execute: async () => (runs++, sweep().execute()) });
    queue.register(RELEASE_STALE_RESERVATIONS, handler);
    await queue.schedule(RELEASE_STALE_RESERVATIONS, RELEASE_STALE_RESERVATIONS_CRON);
    await queue.schedule(RELEASE_STALE_RESERVATIONS, RELEASE_STALE_RESERVATIONS_CRON); // a second worker starting
    const schedules = await queue.boss.getSchedules();
    expect(schedules.filter((s) => s.name === MAINTENANCE_QUEUE)).toEqual([
      expect.objectContaining({ name: MAINTENANCE_QUEUE, key: RELEASE_STALE_RESERVATIONS, cron: RELEASE_STALE_RESERVATIONS_CRON, data: { kind: RELEASE_STALE_RESERVATIONS } }),
    ]);
    // what the cron pass sends each minute, sent now rather than waited for
    await queue.boss.send(MAINTENANCE_QUEUE, { kind: RELEASE_STALE_RESERVATIONS });
    await expect.poll(() => status(r.id), { timeout: 10_000 }).toBe('released');
    expect(runs).toBe(1);
  });
});
