import { sql, type Kysely } from 'kysely';
import type { AgentSchedule, AgentScheduleRepository, DueAgentSchedules, NewAgentSchedule, ScheduleRun } from '../../../../application/ports/agent-schedule-repository.port.js';
import { isUuid, type UserId } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';

const COLUMNS = ['id', 'agent_id', 'user_id', 'cron', 'timezone', 'content', 'next_run_at', 'created_at'] as const;
type Row = { id: string; agent_id: string; user_id: string; cron: string; timezone: string; content: string; next_run_at: Date; created_at: Date };
const toSchedule = (r: Row): AgentSchedule => ({
  id: r.id,
  agentId: r.agent_id,
  userId: r.user_id as UserId,
  cron: r.cron,
  timezone: r.timezone,
  content: r.content,
  nextRunAt: r.next_run_at,
  createdAt: r.created_at,
});

/** The acting user's schedules and runs: RLS scopes every statement to them. */
export class KyselyAgentScheduleRepository implements AgentScheduleRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly userId: UserId,
  ) {}

  async listForAgent(agentId: string): Promise<AgentSchedule[]> {
    if (!isUuid(agentId)) return [];
    const rows = await this.db.selectFrom('agent_schedules').select(COLUMNS).where('agent_id', '=', agentId).orderBy('created_at').orderBy('id').execute();
    return rows.map(toSchedule);
  }

  async addWithin(s: NewAgentSchedule, limit: number): Promise<{ added: AgentSchedule } | { full: number }> {
    // A transaction-scoped advisory lock keyed by the agent: concurrent adds count one after the other.
    await sql`select pg_advisory_xact_lock(hashtextextended(${`agent_schedules:${s.agentId}`}, 0))`.execute(this.db);
    const { n } = await this.db.selectFrom('agent_schedules').select((eb) => eb.fn.countAll<string>().as('n')).where('agent_id', '=', s.agentId).executeTakeFirstOrThrow();
    if (Number(n) >= limit) return { full: Number(n) };
    const row = await this.db
      .insertInto('agent_schedules')
      .values({ id: s.id, agent_id: s.agentId, user_id: this.userId, cron: s.cron, timezone: s.timezone, content: s.content, next_run_at: s.nextRunAt })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return { added: toSchedule(row) };
  }

  async remove(agentId: string, scheduleId: string): Promise<boolean> {
    if (!isUuid(agentId) || !isUuid(scheduleId)) return false;
    const r = await this.db.deleteFrom('agent_schedules').where('id', '=', scheduleId).where('agent_id', '=', agentId).executeTakeFirst();
    return r.numDeletedRows > 0n;
  }

  async claimDue(scheduleId: string, now: Date): Promise<AgentSchedule | null> {
    const row = await this.db
      .selectFrom('agent_schedules')
      .select(COLUMNS)
      .where('id', '=', scheduleId)
      .where('next_run_at', '<=', now)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    return row ? toSchedule(row) : null;
  }

  async advance(scheduleId: string, next: Date): Promise<void> {
    await this.db.updateTable('agent_schedules').set({ next_run_at: next }).where('id', '=', scheduleId).execute();
  }

  async recordRun(run: ScheduleRun): Promise<void> {
    await this.db
      .insertInto('agent_schedule_runs')
      .values({ schedule_id: run.scheduleId, due_at: run.dueAt, user_id: this.userId, outcome: run.outcome, reason: run.reason, message_id: run.messageId, ran_at: run.ranAt })
      .execute();
  }

  async previousStillQueued(scheduleId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('agent_schedule_runs as r')
      .innerJoin('agent_mailbox as b', 'b.message_id', 'r.message_id')
      .select('r.due_at')
      .where('r.schedule_id', '=', scheduleId)
      .where('b.status', '=', 'queued')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async pruneRuns(scheduleId: string, keep: number): Promise<void> {
    await sql`
      DELETE FROM agent_schedule_runs WHERE schedule_id = ${scheduleId} AND due_at < (
        SELECT due_at FROM agent_schedule_runs WHERE schedule_id = ${scheduleId} ORDER BY due_at DESC OFFSET ${keep - 1} LIMIT 1
      )`.execute(this.db);
  }

  async listRuns(scheduleId: string, limit: number): Promise<ScheduleRun[]> {
    if (!isUuid(scheduleId)) return [];
    const rows = await this.db
      .selectFrom('agent_schedule_runs')
      .select(['schedule_id', 'due_at', 'outcome', 'reason', 'message_id', 'ran_at'])
      .where('schedule_id', '=', scheduleId)
      .orderBy('due_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ scheduleId: r.schedule_id, dueAt: r.due_at, outcome: r.outcome, reason: r.reason, messageId: r.message_id, ranAt: r.ran_at }));
  }
}

/** Who is due, across users (system unit of work: it sees only ids, owners and times). */
export class KyselyDueAgentSchedules implements DueAgentSchedules {
  constructor(private readonly db: Kysely<Database>) {}

  async due(now: Date, limit: number): Promise<{ id: string; userId: UserId }[]> {
    const rows = await this.db.selectFrom('agent_schedules').select(['id', 'user_id']).where('next_run_at', '<=', now).orderBy('next_run_at').limit(limit).execute();
    return rows.map((r) => ({ id: r.id, userId: r.user_id as UserId }));
  }
}
