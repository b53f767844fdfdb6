import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { METER_STATEMENTS_PLANNED } from '../../../src/adapters/outbound/persistence/pg-usage-meter.js';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';

/**
 * The plans of the statements that find a reservation by its id (the settlement, the renewal), in
 * the state the soak found them in: a table of many closed reservations, statistics from a VACUUM
 * that saw few open ones, and thousands opened and closed since (their entries still in every
 * index). Planned generically, as the meter's named statements are after their fifth run. Before
 * decision 0475 the settlement walked the sweep's partial index (every entry opened since the
 * vacuum) instead of the primary key: 62 buffers for its row in the soak, growing between vacuums.
 * On the old index the renewal's plan here walks it (this file fails); the settlement's own choice
 * of it came with statistics not reproduced here, and is held to the primary key all the same.
 */
const { db, uow, pools } = await openTestPersistence();
const DAY = '2026-06-15';
let payer = '';
let open = '';

type Plan = { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number; Plans?: Plan[] };
/** How a plan reads usage_reservations: the indexes it walks (index or bitmap scans), or `Seq Scan`. */
function scans(p: Plan, out: string[] = []): string[] {
  if (p['Index Name']?.startsWith('usage_reservations')) out.push(p['Index Name']);
  if (p['Node Type'] === 'Seq Scan' && p['Relation Name'] === 'usage_reservations') out.push('Seq Scan');
  for (const c of p.Plans ?? []) scans(c, out);
  return out;
}

/** The statement prepared and run once under EXPLAIN (ANALYZE, BUFFERS) with a generic plan, as app_system, rolled back. */
async function planOf(text: string, params: (string | null)[]): Promise<{ scans: string[]; buffers: number }> {
  const c = await pools.owner.connect();
  try {
    await c.query('BEGIN');
    await c.query('SET LOCAL ROLE app_system');
    await c.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
    await c.query(`PREPARE planned AS ${text}`);
    const args = params.map((p) => (p === null ? 'NULL' : `'${p}'`)).join(', ');
    const r = await c.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE planned(${args})`);
    const plan = (r.rows[0]['QUERY PLAN'] as { Plan: Plan }[])[0]!.Plan;
    return { scans: scans(plan), buffers: (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0) };
  } finally {
    await c.query('ROLLBACK').catch(() => undefined);
    await c.query('DEALLOCATE ALL').catch(() => undefined);
    c.release();
  }
}

beforeAll(async () => {
  const u = await insertUser(uow, { credits: 1_000_000 });
  payer = u.id;
  const o = pools.owner;
  await o.query(`INSERT INTO daily_usage (user_id, day, used_units) VALUES ($1, $2, 0)`, [payer, DAY]);
  await o.query('ALTER TABLE usage_reservations SET (autovacuum_enabled = false)');
  // many closed, a few open, then the statistics of a vacuum
  await o.query(
    `INSERT INTO usage_reservations (id, payer, day, units, status, settled_units, created_at, renewed_at, closed_at)
     SELECT gen_random_uuid(), $1, $2, 10, 'settled', 9, now(), now(), now() FROM generate_series(1, 20000)`,
    [payer, DAY],
  );
  await o.query(`INSERT INTO usage_reservations (id, payer, day, units, created_at, renewed_at) SELECT gen_random_uuid(), $1, $2, 10, now(), now() FROM generate_series(1, 5)`, [payer, DAY]);
  await o.query('VACUUM ANALYZE usage_reservations');
  // then thousands opened and closed since: dead entries the statistics do not count
  await o.query(`INSERT INTO usage_reservations (id, payer, day, units, created_at, renewed_at) SELECT gen_random_uuid(), $1, $2, 10, now(), now() FROM generate_series(1, 5000)`, [payer, DAY]);
  await o.query(`UPDATE usage_reservations SET status = 'released', closed_at = now() WHERE status = 'open' AND created_at = (SELECT max(created_at) FROM usage_reservations)`);
  open = randomUUID();
  await o.query(`INSERT INTO usage_reservations (id, payer, day, units, created_at, renewed_at) VALUES ($1, $2, $3, 10, now(), now())`, [open, payer, DAY]);
}, 60_000);

describe('usage reservations: the plans of the statements that find one by id', () => {
  it('when the sweep\'s index holds thousands of closed entries the statistics do not count, then the settlement finds its row through the primary key', async () => {
    const { close } = METER_STATEMENTS_PLANNED;
    const p = await planOf(close, [open, '9', 'settled', new Date().toISOString(), '{}', null]);
    expect(p.scans).toEqual(['usage_reservations_pkey']);
    // the row, its user and day rows, the plan's subscription: tens of buffers, not the index's hundreds
    expect(p.buffers).toBeLessThan(40);
  });

  it('when leases are renewed, then each reservation is found through the primary key', async () => {
    const p = await planOf(METER_STATEMENTS_PLANNED.renew, [`{${open},${randomUUID()}}`, new Date(Date.now() + 60_000).toISOString()]);
    expect(p.scans).toEqual(['usage_reservations_pkey']);
  });

  it('when the stale sweep runs, then it still walks its own index, oldest lease first', async () => {
    const p = await planOf(METER_STATEMENTS_PLANNED.openBefore, [new Date(Date.now() + 60_000).toISOString(), '100']);
    expect(p.scans).toEqual(['usage_reservations_open_idx']);
  });
});
