import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PgUsageMeter } from '../../../src/adapters/outbound/persistence/pg-usage-meter.js';
import type { UsageReservation } from '../../../src/application/ports/usage-meter.port.js';
import { NO_KEY_LIMITS } from '../../../src/domain/accounts/api-key-limits.js';
import { KeyBudgetExhaustedError, UsageExhaustedError } from '../../../src/domain/billing/billing.errors.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';

/** An API key's daily cap, reserved in the payer's own statement (decision 0425). */
const { db, uow, pools } = await openTestPersistence();
// A wider system pool than the app's, so 50 reservations really race.
const system = new pg.Pool({ connectionString: db.url, max: 25, options: '-c role=app_system' });
system.on('error', () => {}); // idle clients die when the file's database is dropped
afterAll(() => system.end());

let now = new Date('2026-06-15T12:00:00Z');
const meter = new PgUsageMeter(system, { adminEmails: [], clock: { now: () => now } });

async function keyOf(userId: UserId, dailyUnits: number | null): Promise<string> {
  const lookupId = randomBytes(8).toString('hex');
  const k = await uow.asUser(userId, (s) => s.apiKeys.insert({ name: 'handed out', lookupId, keyHash: 'h', preview: 'sk_…', limits: { ...NO_KEY_LIMITS, dailyUnits } }));
  return k.id;
}
/** The payer's units today (all days) and the key's, as stored. */
const used = async (userId: string, keyId: string) =>
  (
    await pools.owner.query(
      `select (select coalesce(sum(used_units), 0)::int from daily_usage where user_id = $1) as owner,
              (select coalesce(sum(used_units), 0)::int from api_key_usage where key_id = $2) as key`,
      [userId, keyId],
    )
  ).rows[0] as { owner: number; key: number };
const keyDay = async (keyId: string, day: string) =>
  (await pools.owner.query(`select used_units from api_key_usage where key_id = $1 and day = $2`, [keyId, day])).rows[0]?.used_units as number | undefined;

describe('usage meter: an API key with a daily cap', () => {
  it('when 50 reservations of 1 unit race under a key with room for 10, then exactly 10 are taken, the rest refused KEY_BUDGET_EXHAUSTED, and the owner pays exactly those', async () => {
    const u = await insertUser(uow, { credits: 50 }); // 5,000 units of credit: the owner is never short
    const key = await keyOf(u.id, 10);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => meter.reserve(u.id, 1, key)));
    const taken = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(taken).toHaveLength(10);
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(refused.every((e) => e instanceof KeyBudgetExhaustedError && e.code === 'KEY_BUDGET_EXHAUSTED')).toBe(true);
    expect(refused[0].details).toEqual({ requested: 1, available: 0 });
    expect(await used(u.id, key)).toEqual({ owner: 10, key: 10 });
    await Promise.all(taken.map((r) => meter.settle(r, 1)));
    expect(await used(u.id, key)).toEqual({ owner: 10, key: 10 });
    const rows = await pools.owner.query(`select count(*)::int n from usage_reservations where payer = $1 and key_id = $2`, [u.id, key]);
    expect(rows.rows[0].n).toBe(10);
  });

  it('when the owner runs out before the key, then USAGE_EXHAUSTED and neither counter moves', async () => {
    const u = await insertUser(uow, { credits: 1 }); // 100 units
    const key = await keyOf(u.id, 1000);
    await meter.reserve(u.id, 100, key);
    const err = await meter.reserve(u.id, 1, key).catch((e) => e);
    expect(err).toBeInstanceOf(UsageExhaustedError);
    expect(err).not.toBeInstanceOf(KeyBudgetExhaustedError);
    expect(await used(u.id, key)).toEqual({ owner: 100, key: 100 });
  });

  it('when a call is settled to less or more, released, or released by the sweep, then the key moves by exactly what the owner does', async () => {
    const u = await insertUser(uow, { credits: 20 });
    const key = await keyOf(u.id, 1500);
    const open: UsageReservation[] = [];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let step = 0; step < 150; step++) {
      const before = await used(u.id, key);
      if (open.length && rand(2) === 0) {
        const r = open.splice(rand(open.length), 1)[0]!;
        const how = rand(3);
        if (how === 0) await meter.release(r);
        else if (how === 1) await meter.releaseStale(r, new Date(now.getTime() + 1));
        else await meter.settle(r, rand(r.units * 2 + 1));
      } else {
        await meter.reserve(u.id, 1 + rand(120), key).then(
          (r) => open.push(r),
          (e) => expect(e).toBeInstanceOf(UsageExhaustedError),
        );
      }
      const after = await used(u.id, key);
      expect(after.key - before.key, `step ${step}`).toBe(after.owner - before.owner);
      expect(after.key, `step ${step}`).toBeGreaterThanOrEqual(0);
    }
  });

  it('when a key has no cap, then its units are counted and nothing is refused for it', async () => {
    const u = await insertUser(uow, { credits: 1 });
    const key = await keyOf(u.id, null);
    const r = await meter.reserve(u.id, 60, key);
    expect(r).toEqual({ id: expect.any(String), payer: u.id, units: 60, day: '2026-06-15', keyId: key });
    await meter.settle(r, 25);
    expect(await used(u.id, key)).toEqual({ owner: 25, key: 25 });
  });

  it("when the key is not the payer's, or was deleted, then it refuses and writes nothing", async () => {
    const u = await insertUser(uow, { credits: 1 });
    const other = await insertUser(uow, { credits: 1 });
    const othersKey = await keyOf(other.id, null);
    await expect(meter.reserve(u.id, 1, othersKey)).rejects.toBeInstanceOf(UsageExhaustedError);
    await expect(meter.reserve(u.id, 1, randomUUID())).rejects.toBeInstanceOf(UsageExhaustedError);
    await expect(meter.reserve(u.id, 1, 'not-a-uuid')).rejects.toBeInstanceOf(UsageExhaustedError);
    expect(await used(u.id, othersKey)).toEqual({ owner: 0, key: 0 });
  });

  it('when the UTC day changes, then the key has its whole cap again; a late settlement lands on its own day', async () => {
    const u = await insertUser(uow, { credits: 10 });
    const key = await keyOf(u.id, 50);
    const late = await meter.reserve(u.id, 50, key);
    await expect(meter.reserve(u.id, 1, key)).rejects.toBeInstanceOf(KeyBudgetExhaustedError);
    now = new Date('2026-06-16T00:00:01Z');
    try {
      const r = await meter.reserve(u.id, 50, key);
      await meter.settle(late, 20);
      expect(await keyDay(key, '2026-06-15')).toBe(20);
      expect(await keyDay(key, '2026-06-16')).toBe(50);
      await meter.release(r);
      expect(await keyDay(key, '2026-06-16')).toBe(0);
    } finally {
      now = new Date('2026-06-15T12:00:00Z');
    }
  });

  it("when a key's reservation was lost with the database, then its settlement charges the key and the owner alike, once", async () => {
    const u = await insertUser(uow, { credits: 5 });
    const key = await keyOf(u.id, 100);
    const lost: UsageReservation = { id: randomUUID(), payer: u.id, units: 30, day: '2026-06-15', keyId: key };
    const results = await Promise.all(Array.from({ length: 5 }, () => meter.settle(lost, 40)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await used(u.id, key)).toEqual({ owner: 40, key: 40 });
  });
});
