import { sql, type Kysely } from 'kysely';
import type { Agent, AgentConfigObject, ProvisionTier } from '../../../../domain/agents/agent.js';
import type { AgentStatus } from '../../../../domain/agents/agent-status.js';
import { isUuid, type UserId } from '../../../../domain/shared/ids.js';
import type { AgentEventLog, AgentEventReader, AgentMessageFigures, AgentRepository, HourlyMessages, NewAgent, SystemAgentRepository } from '../../../../application/ports/agent-repository.port.js';
import type { AgentEvent, AgentEventKind } from '../../../../domain/agents/agent-event.js';
import type { Database } from './database.js';

const COLUMNS = ['id', 'user_id', 'name', 'model', 'tier', 'status', 'config', 'created_at', 'updated_at'] as const;
const QUALIFIED = COLUMNS.map((c) => `agents.${c}` as const);

/** Agents with their current verification record (migration 0016), absent for an unverified agent. */
const selectAgents = (db: Kysely<Database>) =>
  db
    .selectFrom('agents')
    .leftJoin('agent_verifications as v', 'v.agent_id', 'agents.id')
    .select([...QUALIFIED, 'v.verification_type', 'v.attestation_uid', 'v.verified_at']);

export interface AgentRow {
  id: string;
  user_id: string;
  name: string;
  model: string;
  tier: string | null;
  status: string;
  config: Record<string, unknown>;
  verification_type: string | null;
  attestation_uid: string | null;
  verified_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const toAgent = (r: AgentRow): Agent => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  model: r.model,
  tier: r.tier as ProvisionTier | null,
  status: r.status as AgentStatus,
  config: r.config,
  verified: r.verification_type !== null,
  verificationType: r.verification_type,
  attestationUid: r.attestation_uid,
  verifiedAt: r.verified_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The acting user's agents: RLS scopes every statement to them. */
export class KyselyAgentRepository implements AgentRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly userId: UserId,
  ) {}

  async lockForProvisioning(): Promise<void> {
    // A transaction-scoped advisory lock keyed by the user: released at commit or rollback.
    await sql`select pg_advisory_xact_lock(hashtextextended(${`agents:${this.userId}`}, 0))`.execute(this.db);
  }

  async count(): Promise<number> {
    const r = await this.db.selectFrom('agents').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async insert(a: NewAgent): Promise<Agent> {
    const row = await this.db
      .insertInto('agents')
      .values({ user_id: this.userId, name: a.name, model: a.model, tier: a.tier, status: 'provisioning', config: JSON.stringify(a.config) })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toAgent({ ...row, verification_type: null, attestation_uid: null, verified_at: null });
  }

  async list(): Promise<Agent[]> {
    return (await selectAgents(this.db).orderBy('agents.created_at').orderBy('agents.id').execute()).map(toAgent);
  }

  async get(id: string): Promise<Agent | null> {
    if (!isUuid(id)) return null;
    const row = await selectAgents(this.db).where('agents.id', '=', id).executeTakeFirst();
    return row ? toAgent(row) : null;
  }

  async replaceConfig(id: string, config: AgentConfigObject): Promise<boolean> {
    if (!isUuid(id)) return false;
    const r = await this.db
      .updateTable('agents')
      .set({ config: JSON.stringify(config), updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  async remove(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const r = await this.db.deleteFrom('agents').where('id', '=', id).executeTakeFirst();
    return r.numDeletedRows > 0n;
  }
}

/** Agents across users, for the system unit of work. */
export class KyselySystemAgentRepository implements SystemAgentRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(id: string): Promise<Agent | null> {
    if (!isUuid(id)) return null;
    const row = await selectAgents(this.db).where('agents.id', '=', id).executeTakeFirst();
    return row ? toAgent(row) : null;
  }

  async lock(id: string): Promise<Agent | null> {
    if (!isUuid(id)) return null;
    const row = await selectAgents(this.db).where('agents.id', '=', id).forUpdate('agents').executeTakeFirst();
    return row ? toAgent(row) : null;
  }

  async setStatus(id: string, status: AgentStatus): Promise<void> {
    await this.db.updateTable('agents').set({ status, updated_at: sql<Date>`now()` }).where('id', '=', id).execute();
  }

  async lockAllOf(userId: UserId): Promise<Agent[]> {
    const rows = await selectAgents(this.db).where('agents.user_id', '=', userId).orderBy('agents.created_at').orderBy('agents.id').forUpdate('agents').execute();
    return rows.map(toAgent);
  }
}

export class KyselyAgentEventReader implements AgentEventReader {
  constructor(private readonly db: Kysely<Database>) {}

  async messageFigures(agentId: string, since: Date): Promise<AgentMessageFigures> {
    if (!isUuid(agentId)) return { answered: 0, failed: 0, averageAnswerMs: null, sinceCount: 0 };
    // all time: the events kept, plus the totals of those pruned (decision 0466)
    const { rows } = await sql<{ answered: number; failed: number; avg_ms: number | null; since_count: number }>`
      WITH e AS (
        SELECT count(*) FILTER (WHERE kind = 'message_answered') AS answered,
               count(*) FILTER (WHERE kind = 'message_failed') AS failed,
               coalesce(sum(duration_ms) FILTER (WHERE kind = 'message_answered'), 0) AS ms,
               count(duration_ms) FILTER (WHERE kind = 'message_answered') AS timed,
               count(*) FILTER (WHERE at >= ${since}) AS since_count
          FROM agent_events WHERE agent_id = ${agentId} AND kind IN ('message_answered', 'message_failed')
      ), t AS (
        SELECT coalesce(sum(answered), 0) AS answered, coalesce(sum(failed), 0) AS failed, coalesce(sum(answered_ms), 0) AS ms, coalesce(sum(timed), 0) AS timed
          FROM agent_message_totals WHERE agent_id = ${agentId}
      )
      SELECT (e.answered + t.answered)::int AS answered, (e.failed + t.failed)::int AS failed,
             CASE WHEN e.timed + t.timed = 0 THEN NULL ELSE (e.ms + t.ms)::float8 / (e.timed + t.timed) END AS avg_ms,
             e.since_count::int AS since_count
        FROM e, t`.execute(this.db);
    const row = rows[0]!;
    return { answered: row.answered, failed: row.failed, averageAnswerMs: row.avg_ms, sinceCount: row.since_count };
  }

  async timeline(agentId: string, since: Date, limit: number): Promise<AgentEvent[]> {
    if (!isUuid(agentId)) return [];
    const rows = await this.db
      .selectFrom('agent_events')
      .select(['agent_id', 'kind', 'duration_ms', 'reason', 'at'])
      .where('agent_id', '=', agentId)
      .where('kind', '<>', 'message_answered')
      .where('at', '>=', since)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ agentId: r.agent_id, kind: r.kind as AgentEventKind, durationMs: r.duration_ms, reason: r.reason, at: new Date(r.at) }));
  }

  async messagesPerHour(agentId: string, from: Date, hours: number): Promise<HourlyMessages[]> {
    if (!isUuid(agentId)) return [];
    // every hour present, an empty one as zeros: the chart's x axis is the series itself
    const r = await sql<{ hour: Date; answered: number; failed: number }>`
      with h as (
        select ${from}::timestamptz + make_interval(hours => i) as hour from generate_series(0, ${hours - 1}::int) as i
      ), e as (
        select date_bin('1 hour', at, ${from}::timestamptz) as hour,
          count(*) filter (where kind = 'message_answered')::int as answered,
          count(*) filter (where kind = 'message_failed')::int as failed
        from agent_events
        where agent_id = ${agentId} and kind in ('message_answered', 'message_failed')
          and at >= ${from} and at < ${from}::timestamptz + make_interval(hours => ${hours}::int)
        group by 1
      )
      select h.hour, coalesce(e.answered, 0) as answered, coalesce(e.failed, 0) as failed
      from h left join e on e.hour = h.hour order by h.hour`.execute(this.db);
    return r.rows.map((x) => ({ hour: new Date(x.hour), answered: x.answered, failed: x.failed }));
  }
}

/** Append-only: the roles may insert and read events, never change them. */
export class KyselyAgentEventLog implements AgentEventLog {
  constructor(private readonly db: Kysely<Database>) {}

  async append(e: Parameters<AgentEventLog['append']>[0]): Promise<void> {
    await this.db
      .insertInto('agent_events')
      .values({ agent_id: e.agentId, user_id: e.userId, kind: e.kind, duration_ms: e.durationMs, reason: e.reason, at: e.at })
      .execute();
  }
}
