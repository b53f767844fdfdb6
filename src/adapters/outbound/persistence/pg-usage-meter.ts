import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { systemClock, type Clock } from '../../../application/ports/clock.port.js';
import type { ReservedWithChatAccess, ReservedWithRuntimeCaller, UsageMeter, UsageReservation, UsageSnapshot } from '../../../application/ports/usage-meter.port.js';
import type { RuntimeCaller } from '../../../application/ports/instance-repository.port.js';
import type { ChatAccess } from '../../../application/ports/unit-of-work.port.js';
import { KeyBudgetExhaustedError, UsageExhaustedError } from '../../../domain/billing/billing.errors.js';
import { ADMIN_DAILY_UNITS, PLAN_RANKS } from '../../../domain/billing/daily-allowance.js';
import { UNITS_PER_CREDIT, usageDay } from '../../../domain/billing/units.js';
import { isUuid, type UserId } from '../../../domain/shared/ids.js';
import { DatabaseUnavailableError, isConnectionError } from './pg-errors.js';
import { SUBSCRIBED_STATUSES_SQL } from './sql-literals.js';
import { HOT_READS } from './hot-reads.js';
import { queryPositional, type TextRow } from './positional-query.js';
import { subscriptionFromText } from './kysely/subscription-text.js';

/*
 * The SQL below mirrors the domain's metering rules (units.ts: planReservation, planSettlement;
 * daily-allowance.ts: dailyUnitsFor), so that each operation is one statement and one round trip.
 * A test runs random operation sequences against both and requires identical balances.
 *
 * Only constants of the domain are pasted into the text (plan ids, ranks, numbers); every value
 * from a caller is a parameter.
 */
const RANKS = PLAN_RANKS.map((p) => `('${p.catalog}', '${p.plan}', ${p.rank}, ${p.dailyUnits})`).join(', ');

/**
 * Daily units of the payer (`payer`): best subscribed plan's, at least ADMIN_DAILY_UNITS for an
 * admin: an `email` in `admins` that is verified (`verifiedAt` not null), as roleFor decides.
 */
const dailyUnits = (payer: string, email: string, verifiedAt: string, admins: string) => `greatest(
  coalesce((SELECT r.daily_units FROM subscriptions s
              JOIN (VALUES ${RANKS}) AS r (catalog, plan, rank, daily_units) ON r.catalog = s.catalog AND r.plan = s.plan
             WHERE s.user_id = ${payer} AND s.status IN (${SUBSCRIBED_STATUSES_SQL})
             ORDER BY r.rank DESC LIMIT 1), 0),
  CASE WHEN ${verifiedAt} IS NOT NULL AND ${email} = ANY (${admins}::citext[]) THEN ${ADMIN_DAILY_UNITS} ELSE 0 END)`;

/** Credits charged for `beyond` units paid with credits: whole blocks of UNITS_PER_CREDIT. */
const blocks = (beyond: string) => `ceil((${beyond}) / ${UNITS_PER_CREDIT}.0)::int`;

/**
 * Locks the payer's user row and the day's usage row together. `lim` is materialized so that the
 * plan's daily units are looked up once (inlined, each reference to `daily` ran its own subquery). In READ COMMITTED a row lock that
 * had to wait returns the newest committed version, so the balance read here is never stale, and
 * the UPDATEs below run on rows this statement holds: concurrent callers queue, each sees the
 * previous one's result. `credit_units` (`beyond`) is the part of `used_units` paid with credits
 * when reserved; the rest (`allowance_units`) was taken from the daily allowance.
 */
const LOCKED_BALANCE = (admins: string) => `
  bal AS MATERIALIZED (
    SELECT u.credits, u.email, u.email_verified_at, d.used_units, d.used_units - d.credit_units AS allowance_units
      FROM users u JOIN daily_usage d ON d.user_id = u.id AND d.day = $2::date
     WHERE u.id = $1::uuid
       FOR NO KEY UPDATE OF u, d
  ), lim AS MATERIALIZED (
    SELECT credits, used_units, allowance_units, used_units - allowance_units AS beyond,
           ${dailyUnits('$1::uuid', 'bal.email', 'bal.email_verified_at', admins)} AS daily FROM bal
  )`;

/**
 * The API key a call is made under (`key`: the parameter naming it, or NULL for none), its day's
 * row locked after the payer's (the EXISTS on `bal` is a one-time filter run before the scan, so
 * every statement takes the rows in one order: reservation, user, day, key). `room` is what the
 * key's `daily_units` leave today; null without a cap (decision 0425). Only the payer's own key counts.
 */
const LOCKED_KEY = (key: string) => `
  kb AS MATERIALIZED (
    SELECT kd.key_id, k.daily_units - kd.used_units AS room
      FROM api_key_usage kd JOIN api_keys k ON k.id = kd.key_id AND k.user_id = $1::uuid
     WHERE kd.key_id = ${key}::uuid AND kd.day = $2::date AND EXISTS (SELECT 1 FROM bal)
       FOR NO KEY UPDATE OF kd
  )`;

/**
 * $1 payer, $2 day, $3 units, $4 admin e-mails, $5 reservation id, $6 now; `key`: the API key's
 * parameter ($7) or NULL. Takes the allowance left
 * under the plan in force, then credits (planReservation). Refuses (ok = false, nothing written)
 * when credits cannot cover the new blocks, or when the key's room today cannot cover the units;
 * otherwise takes the units (the key's with the payer's) and stores the open
 * reservation in the same statement, so neither exists without the other.
 *
 * Committed without waiting for the disk (`synchronous_commit` off for this statement's own
 * transaction only): the reservation is on the path of every paid call, and its flush was the
 * largest wait of a chat call. Other sessions see it at once, so concurrent calls are bounded
 * exactly as before; only a crash of PostgreSQL itself within about 3 x wal_writer_delay can lose
 * it, and then together with everything committed after it that was not flushed either (the WAL is
 * one sequence): its units come back with it, and the settlement, which finds no such reservation,
 * charges the call from the process's own copy (settle below). Nothing is spent twice, and a lost
 * reservation leaves no free call while the process that made it lives.
 */
const reserveSql = (finalSelect: string, key: string) => `
  WITH no_flush_wait AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true) AS setting),
  ${LOCKED_BALANCE('$4')}, ${LOCKED_KEY(key)}, split AS (
    SELECT *, least($3::int, greatest(0, daily - allowance_units)) AS from_daily FROM lim
  ), pl AS MATERIALIZED (
    SELECT credits, daily, used_units AS used_before, allowance_units AS allowance_before, beyond AS beyond_before,
           used_units + $3::int AS used_after, beyond + $3::int - from_daily AS beyond_after,
           ${blocks('beyond + $3::int - from_daily')} - ${blocks('beyond')} AS spent
      FROM split
  ), v AS MATERIALIZED (
    -- no row when a key is named and its day's row is missing: nothing locked, as for the payer's
    SELECT pl.*, kb.room AS key_room, pl.spent <= pl.credits AND (kb.room IS NULL OR kb.room >= $3::int) AS ok
      FROM pl LEFT JOIN kb ON true
     WHERE ${key}::uuid IS NULL OR kb.key_id IS NOT NULL
  ), d AS (
    UPDATE daily_usage SET used_units = v.used_after, credit_units = v.beyond_after FROM v
     WHERE daily_usage.user_id = $1::uuid AND daily_usage.day = $2::date AND v.ok
    RETURNING 1
  ), c AS (
    UPDATE users SET credits = users.credits - v.spent FROM v
     WHERE users.id = $1::uuid AND v.spent > 0 AND v.ok
    RETURNING 1
  ), k AS (
    UPDATE api_key_usage SET used_units = api_key_usage.used_units + $3::int FROM v
     WHERE api_key_usage.key_id = ${key}::uuid AND api_key_usage.day = $2::date AND v.ok
    RETURNING 1
  ), r AS (
    INSERT INTO usage_reservations (id, payer, day, units, created_at, renewed_at, key_id)
    SELECT $5::uuid, $1::uuid, $2::date, $3::int, $6::timestamptz, $6::timestamptz, ${key}::uuid FROM v WHERE v.ok
    RETURNING 1
  )
  ${finalSelect}`;

/** The columns every reserve statement ends with, read by position (RESERVED below). */
const RESERVE_COLUMNS = 'v.credits, v.daily, v.allowance_before, v.beyond_before, v.ok, v.key_room';

const RESERVE_SQL = reserveSql(
  `SELECT ${RESERVE_COLUMNS}
    FROM v, no_flush_wait`,
  '$7',
);

/**
 * RESERVE_SQL (with its key, $7), and in the same statement what a `/api/ai/chat` caller may do (the hot read
 * `chatAccess`: their subscriptions and the providers they keep a BYOK key for, read here by user id
 * as the system role may): one round trip where the read and the reservation took two. Always one
 * row: the access columns, with the reservation's columns null when there was nothing to lock (the
 * day's row is missing: created, then the statement runs again).
 */
const RESERVE_WITH_CHAT_ACCESS_SQL = reserveSql(`SELECT ${RESERVE_COLUMNS}, acc.subscriptions, acc.byok_providers
    FROM (SELECT coalesce((SELECT json_agg(json_build_object('id', s.processor_subscription_id, 'status', s.status, 'catalog', s.catalog, 'plan', s.plan))
                             FROM subscriptions s WHERE s.user_id = $1::uuid), '[]') AS subscriptions,
                 coalesce((SELECT json_agg(k.provider) FROM byok_keys k WHERE k.user_id = $1::uuid), '[]') AS byok_providers
            FROM no_flush_wait) acc
    LEFT JOIN v ON true`, '$7');

/**
 * RESERVE_SQL without a key (a runtime's calls are its owner's, never a key's: decision 0425), and in the same statement who makes an agent runtime's call (what
 * SystemInstanceRepository.runtimeCaller reads, as the same text: a test holds the two equal): $7 the
 * gateway token's sha256, $8 the agent named by the call (null when not a uuid). One round trip
 * where the runtime's check and its reservation took two. Always one row: the reservation's columns
 * null when there was nothing to lock, the caller's null when no instance has that token.
 */
const RESERVE_WITH_RUNTIME_CALLER_SQL = reserveSql(`SELECT ${RESERVE_COLUMNS}, rc.user_id, rc.owns_agent, rc.email, rc.email_verified, rc.subscriptions, rc.byok_providers
    FROM no_flush_wait
    LEFT JOIN v ON true
    LEFT JOIN LATERAL (
      SELECT i.user_id, EXISTS (SELECT 1 FROM agents a WHERE a.id = $8::uuid AND a.user_id = i.user_id) AS owns_agent,
             u.email, u.email_verified_at IS NOT NULL AS email_verified,
             (SELECT string_agg(s.status || ':' || coalesce(s.catalog, '') || ':' || coalesce(s.plan, ''), ',') FROM subscriptions s WHERE s.user_id = i.user_id) AS subscriptions,
             (SELECT string_agg(k.provider, ',') FROM byok_keys k WHERE k.user_id = i.user_id) AS byok_providers
        FROM instances i JOIN users u ON u.id = i.user_id
       WHERE i.gateway_token_hash = $7::bytea) rc ON true`,
  'NULL',
);

/** How many columns RESERVE_COLUMNS are: a statement's own columns come after them. */
const RESERVED_WIDTH = 6;

/** RESERVE_WITH_RUNTIME_CALLER_SQL's caller columns (after the reservation's), or null when no instance has the token. */
function runtimeCallerOf(row: TextRow | undefined): RuntimeCaller | null {
  const at = (i: number) => row?.[RESERVED_WIDTH + i] ?? null;
  if (at(0) === null) return null;
  return {
    userId: at(0) as UserId,
    ownsAgent: at(1) === 't',
    email: at(2)!,
    emailVerified: at(3) === 't',
    // comma-joined constrained identifiers (subscription-text.ts), as the hot reads carry them
    subscriptions: at(4) ? at(4)!.split(',').flatMap((t) => subscriptionFromText(t)) : [],
    byokProviders: at(5) ? at(5)!.split(',') : [],
  };
}

/**
 * The reserve statements' first columns, from their text by position (null when nothing was
 * locked). `keyRoom`: what the key's cap left before this statement; null without a key or a cap.
 */
const RESERVED = (row: TextRow | undefined) =>
  row === undefined || row[4] === null
    ? null
    : {
        credits: Number(row[0]),
        daily: Number(row[1]),
        allowanceBefore: Number(row[2]),
        beyondBefore: Number(row[3]),
        ok: row[4] === 't',
        keyRoom: row[5] === null ? null : Number(row[5]),
      };

/**
 * Closing a reservation `r` (a statement returning its payer, day, the units it took and the API key it was taken under): $2 actual
 * units (0 to release), $5 admin e-mails. In CLOSE_SQL: $1 reservation id, $3 'settled' or
 * 'released', $4 now, $6 a lease cutoff or null (the stale sweep: only if not renewed since). Closes the reservation only if it is open (a conditional UPDATE: of concurrent callers
 * the first to lock the row wins, the others re-check `status = 'open'` on the new version and
 * match nothing), and adjusts the balance of the stored payer and day by the stored units in the
 * same statement, so a closed reservation has always been accounted for exactly once
 * (planSettlement): units given back come off the credit-paid units first, then off the allowance
 * taken, never recomputed with the plan in force now; an overrun takes the allowance left now,
 * then credits as far as they go, the rest waived. Returns no row when nothing was open.
 * `lim` is materialized as the reserve statement's is: inlined, each later reference to `daily`
 * ran the plan's subquery again (five times per settlement).
 */
const closing = (r: string) => `
  WITH r AS (${r}), bal AS MATERIALIZED (
    SELECT r.payer, r.day, r.units AS reserved, u.credits, u.email, u.email_verified_at, d.used_units, d.used_units - d.credit_units AS allowance_units
      FROM r JOIN users u ON u.id = r.payer JOIN daily_usage d ON d.user_id = r.payer AND d.day = r.day
       FOR NO KEY UPDATE OF u, d
  ), lim AS MATERIALIZED (
    SELECT payer, day, credits, used_units, allowance_units, used_units - allowance_units AS beyond,
           greatest(0, reserved - $2::int) AS back, greatest(0, $2::int - reserved) AS extra,
           ${dailyUnits('bal.payer', 'bal.email', 'bal.email_verified_at', '$5')} AS daily FROM bal
  ), p1 AS (
    SELECT *, least(back, beyond) AS from_beyond, least(extra, greatest(0, daily - allowance_units)) AS to_allowance FROM lim
  ), p2 AS (
    SELECT *, least(back - from_beyond, allowance_units) AS from_allowance FROM p1
  ), bl AS (
    SELECT payer, day, credits, used_units,
           used_units - from_beyond - from_allowance + extra AS used_after,
           beyond - from_beyond + extra - to_allowance AS beyond_after,
           ${blocks('beyond - from_beyond + extra - to_allowance')} - ${blocks('beyond')} AS block_delta
      FROM p2
  ), cd AS MATERIALIZED (
    SELECT *, CASE WHEN block_delta <= 0 THEN 0 - block_delta ELSE 0 - least(block_delta, credits) END AS credits_delta FROM bl
  ), d AS (
    UPDATE daily_usage SET used_units = cd.used_after, credit_units = cd.beyond_after FROM cd
     WHERE daily_usage.user_id = cd.payer AND daily_usage.day = cd.day
    RETURNING 1
  ), c AS (
    UPDATE users SET credits = users.credits + cd.credits_delta FROM cd
     WHERE users.id = cd.payer AND cd.credits_delta <> 0
    RETURNING 1
  ), k AS (
    -- the key it was taken under moves by exactly what the payer's day moves (decision 0425)
    UPDATE api_key_usage SET used_units = api_key_usage.used_units + (cd.used_after - cd.used_units) FROM cd, r
     WHERE api_key_usage.key_id = r.key_id AND api_key_usage.day = r.day AND cd.used_after <> cd.used_units
    RETURNING 1
  )
  SELECT used_after, credits_delta FROM cd`;

const CLOSE_SQL = closing(`
    UPDATE usage_reservations
       SET status = $3::text, settled_units = CASE WHEN $3::text = 'settled' THEN $2::int END, closed_at = $4::timestamptz
     WHERE id = $1::uuid AND status = 'open' AND ($6::timestamptz IS NULL OR renewed_at < $6::timestamptz)
    RETURNING payer, day, units, key_id`);

/**
 * $1 reservation id, $2 actual units, $3 payer, $4 now, $5 admin e-mails, $6 day, $7 the units it
 * reserved, $8 the API key it was reserved under (or null). The settlement of a reservation that is not stored at all: its reserve statement,
 * committed without waiting for the disk, was lost with a crash of PostgreSQL (and its units with
 * it). Stores it settled, under its own id (so of any number of attempts one does it, and none
 * once the row exists in any state), and charges the actual units as an overrun of nothing
 * reserved: the allowance left on its day, then credits as far as they go.
 */
const SETTLE_LOST_SQL = closing(`
    INSERT INTO usage_reservations (id, payer, day, units, status, settled_units, created_at, renewed_at, closed_at, key_id)
    VALUES ($1::uuid, $3::uuid, $6::date, $7::int, 'settled', $2::int, $4::timestamptz, $4::timestamptz, $4::timestamptz, $8::uuid)
    ON CONFLICT (id) DO NOTHING
    RETURNING payer, day, 0 AS units, key_id`);

/**
 * $1 cutoff, $2 limit: open reservations whose lease was last renewed before the cutoff. Open as
 * `closed_at IS NULL` (a CHECK holds it equal to `status = 'open'`): the sweep's partial index is
 * keyed on it so that the statements finding a reservation by id never walk it (decision 0475).
 */
const OPEN_BEFORE_SQL = `
  SELECT id, payer, units, to_char(day, 'YYYY-MM-DD') AS day FROM usage_reservations
   WHERE closed_at IS NULL AND renewed_at < $1::timestamptz
   ORDER BY renewed_at LIMIT $2::int`;

/** $1 reservation ids, $2 now: the calls holding them are alive. A closed reservation stays as it was. */
const RENEW_SQL = `
  UPDATE usage_reservations SET renewed_at = $2::timestamptz
   WHERE id = ANY ($1::uuid[]) AND status = 'open' AND renewed_at < $2::timestamptz`;

/** The day's row must exist to be locked; created on the payer's first metered call of the day. */
const ENSURE_DAY_SQL = `
  INSERT INTO daily_usage (user_id, day)
  SELECT $1::uuid, $2::date WHERE EXISTS (SELECT 1 FROM users WHERE id = $1::uuid)
  ON CONFLICT DO NOTHING`;

/** $1 payer, $2 day, $3 the payer's API key: its day's row, created on its first metered call of the day. */
const ENSURE_KEY_DAY_SQL = `
  INSERT INTO api_key_usage (key_id, day, user_id)
  SELECT k.id, $2::date, k.user_id FROM api_keys k WHERE k.id = $3::uuid AND k.user_id = $1::uuid
  ON CONFLICT DO NOTHING`;

/** $1 payer, $2 day, $3 admin e-mails. */
const USAGE_SQL = `
  SELECT u.credits, coalesce(d.used_units, 0) AS used, coalesce(d.used_units - d.credit_units, 0) AS allowance, ${dailyUnits('$1::uuid', 'u.email', 'u.email_verified_at', '$3')} AS daily
    FROM users u LEFT JOIN daily_usage d ON d.user_id = u.id AND d.day = $2::date
   WHERE u.id = $1::uuid`;

/** The statements whose plans a test reads (usage-meter-plans.test.ts): as the meter sends them. */
export const METER_STATEMENTS_PLANNED = { close: CLOSE_SQL, renew: RENEW_SQL, openBefore: OPEN_BEFORE_SQL } as const;

const DEADLOCK = '40P01';

/** The key parameter of a reserve statement: the key's id, or null for a call made under none. */
const keyArg = (keyId: string | undefined): string | null => keyId ?? null;

export interface PgUsageMeterOptions {
  /** ADMIN_EMAILS, lower-cased: admins (with the address verified) get at least the top plan's daily units. */
  readonly adminEmails: readonly string[];
  readonly clock?: Clock;
}

/**
 * The metering of CONTRACT.md section 6 on the system pool (app_system): each operation is one
 * autocommit statement (a named prepared statement), so nothing is held across the vendor call
 * between reserve and settle. Usage is keyed by UTC day: the first call after 00:00 UTC starts a
 * new row. Reservations are rows of `usage_reservations`, opened and closed by the statements
 * that move the units.
 */
export class PgUsageMeter implements UsageMeter {
  private readonly clock: Clock;
  private readonly admins: string[];
  /** `admins` as the text of a PostgreSQL array, for the positional statements (built once). */
  private readonly adminsLiteral: string;

  constructor(
    private readonly system: pg.Pool,
    options: PgUsageMeterOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.admins = [...options.adminEmails];
    this.adminsLiteral = textArrayLiteral(this.admins);
  }

  async reserve(payer: UserId, units: number, keyId?: string): Promise<UsageReservation> {
    const { taken } = await this.reserveWith('usage_reserve', RESERVE_SQL, payer, units, keyId, [keyArg(keyId)]);
    if (taken instanceof UsageExhaustedError) throw taken;
    return taken;
  }

  async reserveWithChatAccess(payer: UserId, units: number, keyId?: string): Promise<ReservedWithChatAccess> {
    const { taken, row, available } = await this.reserveWith('usage_reserve_chat', RESERVE_WITH_CHAT_ACCESS_SQL, payer, units, keyId, [keyArg(keyId)]);
    const [subscriptionsText, providersText] = [row?.[RESERVED_WIDTH], row?.[RESERVED_WIDTH + 1]];
    const subscriptions = (subscriptionsText ? JSON.parse(subscriptionsText) : []) as { id: string; status: string; catalog: string | null; plan: string | null }[];
    const providers = (providersText ? JSON.parse(providersText) : []) as string[];
    // in the positional shape of the chat-access read: kind, id, status, catalog, plan
    const rows = [...subscriptions.map((x) => ['s', x.id, x.status, x.catalog, x.plan]), ...providers.map((id) => ['k', id, null, null, null])];
    return { taken, chatAccess: HOT_READS.chatAccess.map(rows), available };
  }

  async reserveWithRuntimeCaller(payer: UserId, units: number, tokenHash: Buffer, agentId: string): Promise<ReservedWithRuntimeCaller> {
    const check = [`\\x${tokenHash.toString('hex')}`, isUuid(agentId) ? agentId : null];
    const { taken, row, available } = await this.reserveWith('usage_reserve_runtime', RESERVE_WITH_RUNTIME_CALLER_SQL, payer, units, undefined, check);
    return { taken, caller: runtimeCallerOf(row), available };
  }

  /**
   * A reserve statement (the day's rows, the payer's and the key's, created first when missing); the
   * refusal is returned, not thrown. `more`: its parameters after the sixth. `available` is the
   * payer's figure (AllowanceView keeps one per payer); a key's refusal carries the key's room.
   */
  private async reserveWith(name: string, text: string, payer: UserId, units: number, keyId: string | undefined, more: readonly (string | null)[]): Promise<{ taken: UsageReservation | UsageExhaustedError; row: TextRow | undefined; available: number }> {
    if (!Number.isInteger(units) || units < 1) throw new RangeError(`units must be a positive integer, got ${units}`);
    const now = this.clock.now().toISOString();
    const day = now.slice(0, 10); // usageDay
    if (!isUuid(payer) || (keyId !== undefined && !isUuid(keyId))) return { taken: new UsageExhaustedError({ requested: units, available: 0 }), row: undefined, available: 0 };
    const id = randomUUID();
    const values = [payer, day, String(units), this.adminsLiteral, id, now, ...more];
    let row = (await this.positional(name, text, values))[0];
    let r = RESERVED(row);
    if (!r) {
      await this.positional('usage_ensure_day', ENSURE_DAY_SQL, [payer, day]);
      if (keyId !== undefined) await this.positional('usage_ensure_key_day', ENSURE_KEY_DAY_SQL, [payer, day, keyId]);
      row = (await this.positional(name, text, values))[0];
      r = RESERVED(row);
    }
    // no such user, or no such key of theirs (deleted since the caller was authenticated)
    if (!r) return { taken: new UsageExhaustedError({ requested: units, available: 0 }), row, available: 0 };
    // what could be reserved before this statement: the day's allowance left, the credit block already
    // begun, then whole credits (a reservation that went through took exactly its units out of that)
    const dailyLeft = Math.max(0, r.daily - r.allowanceBefore);
    const blockLeft = Math.ceil(r.beyondBefore / UNITS_PER_CREDIT) * UNITS_PER_CREDIT - r.beyondBefore;
    const before = dailyLeft + blockLeft + r.credits * UNITS_PER_CREDIT;
    if (r.keyRoom !== null && r.keyRoom < units) return { taken: new KeyBudgetExhaustedError({ requested: units, available: Math.max(0, r.keyRoom) }), row, available: before };
    if (!r.ok) return { taken: new UsageExhaustedError({ requested: units, available: before }), row, available: before };
    return { taken: { id, payer, units, day, ...(keyId !== undefined ? { keyId } : {}) }, row, available: before - units };
  }

  async settle(reservation: Pick<UsageReservation, 'id'> & Partial<UsageReservation>, actualUnits: number, handedOver?: () => void): Promise<boolean> {
    if (!Number.isInteger(actualUnits) || actualUnits < 0) throw new RangeError(`actualUnits must be a non-negative integer, got ${actualUnits}`);
    if (await this.close(reservation.id, actualUnits, 'settled', null, handedOver)) return true;
    // Nothing open under that id. Closed already (a repeat, or the stale sweep), or never stored: a
    // reservation committed without waiting for the disk and lost with a crash of PostgreSQL. Then the
    // process's own copy says what was reserved, and the call is charged all the same.
    const { payer, day, units, keyId } = reservation;
    if (payer === undefined || day === undefined || units === undefined || !isUuid(payer)) return false;
    await this.query('usage_ensure_day', ENSURE_DAY_SQL, [payer, day]);
    if (keyId !== undefined && isUuid(keyId)) await this.query('usage_ensure_key_day', ENSURE_KEY_DAY_SQL, [payer, day, keyId]);
    const key = keyId !== undefined && isUuid(keyId) ? keyId : null;
    const r = await this.query('usage_settle_lost', SETTLE_LOST_SQL, [reservation.id, actualUnits, payer, this.clock.now(), this.admins, day, units, key]);
    return r.rows.length > 0;
  }

  async release(reservation: Pick<UsageReservation, 'id'>): Promise<boolean> {
    return this.close(reservation.id, 0, 'released');
  }

  async releaseStale(reservation: Pick<UsageReservation, 'id'>, cutoff: Date): Promise<boolean> {
    return this.close(reservation.id, 0, 'released', cutoff);
  }

  async openBefore(cutoff: Date, limit: number): Promise<UsageReservation[]> {
    const r = await this.query('usage_open_before', OPEN_BEFORE_SQL, [cutoff, limit]);
    return r.rows.map((row) => ({ id: row.id, payer: row.payer as UserId, units: row.units, day: row.day }));
  }

  async renew(ids: readonly string[]): Promise<number> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return 0;
    const r = await this.query('usage_renew', RENEW_SQL, [valid, this.clock.now()]);
    return r.rowCount ?? 0;
  }

  async usage(payer: UserId): Promise<UsageSnapshot> {
    const r = await this.query('usage_snapshot', USAGE_SQL, [payer, usageDay(this.clock.now()), this.admins]);
    const row = r.rows[0];
    const dailyUnits = row?.daily ?? 0;
    const used = row?.used ?? 0;
    return { dailyUnits, used, remaining: Math.max(0, dailyUnits - (row?.allowance ?? 0)), credits: row?.credits ?? 0 };
  }

  /**
   * Settled against the stored day the units were taken from, even after midnight (that row is
   * what they came out of), by the stored units: the caller's copy is never trusted.
   */
  private async close(id: string, actualUnits: number, status: 'settled' | 'released', leaseCutoff: Date | null = null, handedOver?: () => void): Promise<boolean> {
    if (!isUuid(id)) return false;
    const values = [id, String(actualUnits), status, this.clock.now().toISOString(), this.adminsLiteral, leaseCutoff?.toISOString() ?? null];
    return (await this.positional('usage_close', CLOSE_SQL, values, handedOver)).length > 0;
  }

  private async query(name: string, text: string, values: unknown[]): Promise<pg.QueryResult> {
    return this.retried(() => this.system.query({ name, text, values }));
  }

  /**
   * The statements on every paid call's path (reserve, close), answered as positional text
   * (positional-query.ts: no Describe, no per-call parsers, row objects or query-config copies;
   * values given as text). `handedOver` runs once the statement has been written to its
   * connection, before its answer: pg writes a query to the socket within `client.query` when the
   * connection is idle, as a checked-out one is.
   */
  private positional(name: string, text: string, values: readonly (string | null)[], handedOver?: () => void): Promise<TextRow[]> {
    return this.retried(async () => {
      const client = await this.system.connect();
      if (!listened.has(client)) {
        // a checked-out client whose connection drops emits 'error' besides failing its query, and
        // the pool listens only to idle ones: the failed query is where it is handled
        listened.add(client);
        client.on('error', () => undefined);
      }
      let failure: Error | undefined;
      try {
        const rows = queryPositional(client, name, text, values);
        handedOver?.();
        return await rows;
      } catch (err) {
        failure = err instanceof Error ? err : new Error(String(err));
        throw err;
      } finally {
        // as pool.query does: a client whose statement failed is not reused
        client.release(failure);
      }
    });
  }

  private async retried<T>(run: () => Promise<T>): Promise<T> {
    // Every statement locks the payer's user and day rows together; closing locks its one
    // reservation row before them, and reserving inserts a new one after them, so no two wait on
    // each other in a cycle. A deadlock is possible only if plans ever disagree on the order of
    // user and day, and PostgreSQL then aborts one: retrying it is always safe (nothing was written).
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (err) {
        if ((err as { code?: string }).code === DEADLOCK && attempt < 3) continue;
        throw isConnectionError(err) ? new DatabaseUnavailableError(err) : err;
      }
    }
  }
}

const listened = new WeakSet<pg.PoolClient>();

/** A PostgreSQL array literal of text elements: each quoted, with `"` and backslash escaped. */
function textArrayLiteral(items: readonly string[]): string {
  return `{${items.map((x) => `"${x.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}
