/**
 * The paid call's two statements (the reservation with the chat access, the settlement) on their
 * own, under each of some connection settings, alternating: PostgreSQL backend CPU (from /proc) and
 * round trip per call pair. `TEST_DATABASE_URL=... npx tsx bench/reserve-plan-probe.ts [pairs] [alternations]`;
 * PROBE_MODES, comma-separated, each `auto` (none), a plan_cache_mode or `setting=value` pairs
 * separated by spaces (default `auto,force_generic_plan`; `synchronous_commit=off` prices the flush).
 * A named prepared statement with parameters is planned anew for each execution while PostgreSQL's
 * plan cache prefers custom plans; these statements are large CTEs, so planning is much of their cost.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PgUsageMeter } from '../src/adapters/outbound/persistence/pg-usage-meter.js';
import type { UserId } from '../src/domain/shared/ids.js';
import { benchDatabase, processCpuMs } from './support.js';

const pairs = Number(process.argv[2] ?? 2000);
const alternations = Number(process.argv[3] ?? 3);
const db = await benchDatabase();
const owner = new pg.Client({ connectionString: db.url });
await owner.connect();
const suffix = randomBytes(4).toString('hex');
const u = (await owner.query(`insert into users (email, name, password_hash, referral_code, credits) values ($1, 'Probe', 'x', $2, 100000000) returning id`, [`probe-${suffix}@example.test`, `R${suffix}`])).rows[0] as { id: string };
await owner.query(`insert into subscriptions (processor_subscription_id, user_id, kind, catalog, plan, status, last_event_at) values ($1, $2, 'subscription', 'checkout', 'network', 'active', now())`, [`sub_${suffix}`, u.id]);
await owner.end();

async function run(mode: string | null): Promise<{ cpuUs: number; wallUs: number }> {
  const pool = new pg.Pool({ connectionString: db.url, max: 1, options: `-c role=app_system${mode ? ` ${mode.split(' ').map((o) => `-c ${o.includes('=') ? o : `plan_cache_mode=${o}`}`).join(' ')}` : ''}` });
  const meter = new PgUsageMeter(pool, { adminEmails: [] });
  const pid = (await pool.query('select pg_backend_pid() as pid')).rows[0].pid as number;
  for (let i = 0; i < 50; i++) {
    const r = await meter.reserveWithChatAccess(u.id as UserId, 10);
    if (!('id' in r.taken)) throw new Error('refused');
    await meter.settle(r.taken, 9);
  }
  const cpu0 = processCpuMs(pid);
  const t0 = performance.now();
  for (let i = 0; i < pairs; i++) {
    const r = await meter.reserveWithChatAccess(u.id as UserId, 10);
    if (!('id' in r.taken)) throw new Error('refused');
    await meter.settle(r.taken, 9);
  }
  const wallUs = ((performance.now() - t0) * 1000) / pairs;
  const cpuUs = ((processCpuMs(pid) - cpu0) * 1000) / pairs;
  await pool.end();
  return { cpuUs, wallUs };
}

const modes = (process.env.PROBE_MODES ?? 'auto,force_generic_plan').split(',').map((m) => (m === 'auto' ? null : m));
const out: Record<string, { cpuUs: number[]; wallUs: number[] }> = {};
for (let a = 0; a < alternations; a++) {
  for (const m of a % 2 ? [...modes].reverse() : modes) {
    const r = await run(m);
    const o = (out[m ?? 'auto'] ??= { cpuUs: [], wallUs: [] });
    o.cpuUs.push(r.cpuUs);
    o.wallUs.push(r.wallUs);
  }
}
for (const [m, o] of Object.entries(out)) console.log(`${m.padEnd(20)} backend CPU per reserve+settle ${o.cpuUs.map((x) => x.toFixed(0)).join(' ')} µs; round trips ${o.wallUs.map((x) => x.toFixed(0)).join(' ')} µs`);
await db.drop();
process.exit(0);
