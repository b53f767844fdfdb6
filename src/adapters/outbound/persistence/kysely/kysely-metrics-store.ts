import { sql, type Kysely } from 'kysely';
import { calendarStarts } from '../../../../domain/metrics/calendar.js';
import type { BucketPlan } from '../../../../domain/metrics/metrics-range.js';
import { asUserId, type UserId } from '../../../../domain/shared/ids.js';
import type {
  DailyUsage, HistoryBucket, InstanceSample, PlatformFigures, RequestTimingRow, SystemMetricsStore, UserMetricsReader, UserPerformanceFigures, UserSummaryFigures,
} from '../../../../application/ports/metrics-store.port.js';
import type { Database } from './database.js';

const DAY_MS = 86_400_000;
const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const UP_KINDS = sql`('provisioned', 'started', 'repaired')`;
const STATE_KINDS = sql`('provisioned', 'provision_failed', 'started', 'stopped', 'crashed', 'repaired')`;

export class KyselySystemMetricsStore implements SystemMetricsStore {
  constructor(private readonly db: Kysely<Database>) {}

  async platform(now: Date): Promise<PlatformFigures> {
    const { day, week, month } = calendarStarts(now);
    const since24h = new Date(now.getTime() - DAY_MS);
    const since30d = new Date(now.getTime() - 30 * DAY_MS);
    // One round trip: each figure is a scalar subquery over its own table.
    const r = await sql<Record<string, unknown>>`
      select
        (select count(*) from agents) as agents_total,
        (select count(*) from agents where status = 'running') as agents_running,
        (select count(*) from agents where status = 'stopped') as agents_stopped,
        (select count(*) from agents where status = 'provisioning') as agents_provisioning,
        (select count(*) from agents where status = 'error') as agents_error,
        (select count(*) from agent_messages where created_at >= ${day} and created_at <= ${now}) as messages_today,
        (select count(*) from agent_messages where created_at >= ${week} and created_at <= ${now}) as messages_week,
        (select count(*) from agent_messages where created_at >= ${month} and created_at <= ${now}) as messages_month,
        (select count(*) from agent_events where kind = 'provisioned') as provisioned,
        (select count(*) from agent_events where kind = 'provision_failed') as provision_failed,
        (select count(*) from platform_ticks where minute >= ${since30d} and minute <= ${now}) as ticks,
        (select min(minute) from platform_ticks where minute >= ${since30d} and minute <= ${now}) as first_tick,
        (select sum(count) from request_timings where minute >= ${since24h}) as requests,
        (select sum(count) from request_timings where minute >= ${since24h} and status_class = 5) as request_errors,
        (select sum(total_ms) from request_timings where minute >= ${since24h}) as request_ms,
        pg_database_size(current_database()) as database_bytes`.execute(this.db);
    const row = r.rows[0]!;
    const ticks = num(row.ticks);
    const firstTick = row.first_tick as Date | null;
    // the minutes from the first tick's to now's, both counted
    const minutes = firstTick ? Math.floor((now.getTime() - firstTick.getTime()) / 60_000) + 1 : 0;
    return {
      agents: { total: num(row.agents_total), running: num(row.agents_running), stopped: num(row.agents_stopped), provisioning: num(row.agents_provisioning), error: num(row.agents_error) },
      messages: { today: num(row.messages_today), thisWeek: num(row.messages_week), thisMonth: num(row.messages_month) },
      deployments: { provisioned: num(row.provisioned), failed: num(row.provision_failed) },
      platformUptimePercent: minutes > 0 ? Math.min(1, ticks / minutes) * 100 : null,
      averageAgentUptimePercent: await this.averageAgentUptime(now),
      requests: { count: num(row.requests), errors: num(row.request_errors), totalMs: num(row.request_ms) },
      databaseBytes: num(row.database_bytes),
    };
  }

  /** Per agent: time after an up event until the next state event (or now), over the time since its first state event. */
  private async averageAgentUptime(now: Date): Promise<number | null> {
    const r = await sql<{ pct: string | null }>`
      with ev as (
        select agent_id, kind, at, lead(at) over (partition by agent_id order by at, id) as next_at
        from agent_events where kind in ${STATE_KINDS} and at <= ${now}
      ), per_agent as (
        select agent_id,
          sum(case when kind in ${UP_KINDS} then extract(epoch from coalesce(next_at, ${now}::timestamptz) - at) else 0 end) as up_s,
          extract(epoch from ${now}::timestamptz - min(at)) as span_s
        from ev group by agent_id
      )
      select avg(least(up_s / span_s, 1) * 100) as pct from per_agent where span_s > 0`.execute(this.db);
    const pct = r.rows[0]?.pct;
    return pct === null || pct === undefined ? null : Number(pct);
  }

  async runningInstances(): Promise<UserId[]> {
    const rows = await this.db.selectFrom('instances').select('user_id').where('status', '=', 'running').execute();
    return rows.map((r) => asUserId(r.user_id));
  }

  async recordSamples(samples: InstanceSample[], at: Date): Promise<void> {
    if (samples.length === 0) return;
    await this.db
      .insertInto('instance_samples')
      .values(samples.map((s) => ({ user_id: s.userId, sampled_at: at, cpu_percent: s.cpuPercent, memory_percent: s.memoryPercent, rss_bytes: Math.round(s.rssBytes) })))
      .onConflict((oc) => oc.columns(['user_id', 'sampled_at']).doNothing())
      .execute();
  }

  async tick(minute: Date): Promise<void> {
    await this.db.insertInto('platform_ticks').values({ minute }).onConflict((oc) => oc.column('minute').doNothing()).execute();
  }

  async prune(before: Date): Promise<number> {
    const r = await this.db.deleteFrom('instance_samples').where('sampled_at', '<', before).executeTakeFirst();
    await this.db.deleteFrom('platform_ticks').where('minute', '<', before).execute();
    await this.db.deleteFrom('request_timings').where('minute', '<', before).execute();
    return Number(r.numDeletedRows);
  }

  async addRequestTimings(rows: RequestTimingRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('request_timings')
      .values(rows.map((t) => ({ minute: t.minute, route: t.route.slice(0, 300), status_class: t.statusClass, count: t.count, total_ms: t.totalMs })))
      .onConflict((oc) =>
        oc.columns(['minute', 'route', 'status_class']).doUpdateSet({
          count: sql`request_timings.count + excluded.count`,
          total_ms: sql`request_timings.total_ms + excluded.total_ms`,
        }),
      )
      .execute();
  }
}

export class KyselyUserMetricsReader implements UserMetricsReader {
  constructor(private readonly db: Kysely<Database>) {}

  async dailyUsage(fromDay: string, days: number): Promise<DailyUsage[]> {
    const r = await sql<{ day: string; used: number; credit: number }>`
      with d as (select (${fromDay}::date + i) as day from generate_series(0, ${days - 1}::int) as i)
      select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(u.used_units, 0)::int as used, coalesce(u.credit_units, 0)::int as credit
      from d left join daily_usage u on u.day = d.day order by d.day`.execute(this.db);
    return r.rows.map((x) => ({ day: x.day, usedUnits: x.used, creditUnits: x.credit }));
  }

  async history(plan: BucketPlan): Promise<{ buckets: HistoryBucket[]; averages: { cpu: number; memory: number } }> {
    const from = plan.from;
    const end = new Date(from.getTime() + plan.count * plan.stepSeconds * 1000);
    const step = sql`make_interval(secs => ${plan.stepSeconds})`;
    const r = await sql<{ t: Date; cpu: number | null; memory: number | null; messages: string | null; errors: string | null }>`
      with b as (
        select ${from}::timestamptz + ${step} * i as t from generate_series(0, ${plan.count - 1}::int) as i
      ), s as (
        select date_bin(${step}, sampled_at, ${from}::timestamptz) as t, avg(cpu_percent) as cpu, avg(memory_percent) as memory
        from instance_samples where sampled_at >= ${from} and sampled_at < ${end} group by 1
      ), m as (
        select date_bin(${step}, created_at, ${from}::timestamptz) as t, count(*) as n
        from agent_messages where created_at >= ${from} and created_at < ${end} group by 1
      ), e as (
        select date_bin(${step}, finished_at, ${from}::timestamptz) as t, count(*) as n
        from agent_mailbox where status = 'failed' and finished_at >= ${from} and finished_at < ${end} group by 1
      )
      select b.t, s.cpu, s.memory, m.n as messages, e.n as errors
      from b left join s on s.t = b.t left join m on m.t = b.t left join e on e.t = b.t order by b.t`.execute(this.db);
    const avg = await sql<{ cpu: number | null; memory: number | null }>`
      select avg(cpu_percent) as cpu, avg(memory_percent) as memory from instance_samples where sampled_at >= ${from} and sampled_at < ${end}`.execute(this.db);
    return {
      buckets: r.rows.map((b) => ({ timestamp: b.t, cpu: num(b.cpu), memory: num(b.memory), messages: num(b.messages), errors: num(b.errors) })),
      averages: { cpu: num(avg.rows[0]?.cpu), memory: num(avg.rows[0]?.memory) },
    };
  }

  async performance(since: Date): Promise<UserPerformanceFigures> {
    const latest = await this.db.selectFrom('instance_samples').select(['cpu_percent', 'memory_percent']).orderBy('sampled_at', 'desc').limit(1).executeTakeFirst();
    const r = await sql<{ answered: string; failed: string; avg_ms: string | null }>`
      select
        (select count(*) from agent_mailbox where status = 'answered' and finished_at >= ${since}) as answered,
        (select count(*) from agent_mailbox where status = 'failed' and finished_at >= ${since}) as failed,
        (select avg(duration_ms) from agent_events where kind = 'message_answered' and at >= ${since}) as avg_ms`.execute(this.db);
    const row = r.rows[0]!;
    return {
      latestSample: latest ? { cpuPercent: latest.cpu_percent, memoryPercent: latest.memory_percent } : null,
      answered: num(row.answered),
      failed: num(row.failed),
      averageAnswerMs: row.avg_ms === null ? null : Number(row.avg_ms),
    };
  }

  async summary(now: Date): Promise<UserSummaryFigures> {
    const { month, previousMonth } = calendarStarts(now);
    // A fan's engagement score as src/domain/skills/fan-segments.ts defines it.
    const score = sql`(shows_attended * 10 + purchases * 5 + streams / 100)`;
    const r = await sql<Record<string, string | null>>`
      select
        (select sum(amount_cents) from skill_escrows where status = 'released' and released_at >= ${month}) as escrow_month,
        (select sum(amount_cents) from skill_escrows where status = 'released' and released_at >= ${previousMonth} and released_at < ${month}) as escrow_prev,
        (select sum(amount_cents) from skill_escrows where status = 'released') as escrow_total,
        (select sum(amount_cents) from skill_royalties where created_at >= ${month}) as royalty_month,
        (select sum(amount_cents) from skill_royalties where created_at >= ${previousMonth} and created_at < ${month}) as royalty_prev,
        (select sum(amount_cents) from skill_royalties) as royalty_total,
        (select count(*) from skill_escrows where status = 'released') as bookings_released,
        (select count(*) from skill_escrows where status = 'held') as bookings_held,
        (select count(*) from skill_fans) as fans_total,
        (select count(*) from skill_fans where ${score} >= 1) as fans_active,
        (select count(*) from skill_fans where ${score} >= 50) as fans_super,
        (select count(*) from skill_fans where ${score} >= 1 and ${score} < 50) as fans_casual,
        (select count(*) from skill_fans where created_at >= ${month}) as fans_month,
        (select count(*) from skill_fans where created_at >= ${previousMonth} and created_at < ${month}) as fans_prev,
        (select count(*) from skill_installs where enabled) as skills_enabled,
        (select count(*) from skill_installs) as skills_total,
        (select count(*) from skill_installs where installed_at >= ${month}) as skills_month,
        (select count(*) from skill_installs where installed_at >= ${previousMonth} and installed_at < ${month}) as skills_prev`.execute(this.db);
    const x = r.rows[0]!;
    return {
      revenueCents: {
        thisMonth: num(x.escrow_month) + num(x.royalty_month),
        previousMonth: num(x.escrow_prev) + num(x.royalty_prev),
        total: num(x.escrow_total) + num(x.royalty_total),
      },
      bookings: { released: num(x.bookings_released), held: num(x.bookings_held) },
      fans: {
        total: num(x.fans_total), active: num(x.fans_active), superfans: num(x.fans_super), casual: num(x.fans_casual),
        newThisMonth: num(x.fans_month), newPreviousMonth: num(x.fans_prev),
      },
      skills: { enabled: num(x.skills_enabled), total: num(x.skills_total), installedThisMonth: num(x.skills_month), installedPreviousMonth: num(x.skills_prev) },
    };
  }
}
