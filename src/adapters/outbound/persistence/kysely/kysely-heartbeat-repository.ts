import type { Kysely } from 'kysely';
import type { HeartbeatRepository, HeartbeatSchedule } from '../../../../application/ports/heartbeat-repository.port.js';
import type { HeartbeatState } from '../../../../domain/heartbeat/heartbeat-schedule.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';

const COLUMNS = ['frequency', 'enabled', 'last_heartbeat', 'next_heartbeat', 'updated_at'] as const;
type Row = { frequency: string; enabled: boolean; last_heartbeat: Date | null; next_heartbeat: Date | null; updated_at: Date };
const toState = (r: Row) => ({ frequency: r.frequency, enabled: r.enabled, lastHeartbeat: r.last_heartbeat, nextHeartbeat: r.next_heartbeat, updatedAt: r.updated_at });

/** The acting user's heartbeat: RLS scopes every statement to them. */
export class KyselyHeartbeatRepository implements HeartbeatRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly userId: UserId,
  ) {}

  async get() {
    const row = await this.db.selectFrom('heartbeats').select(COLUMNS).where('user_id', '=', this.userId).executeTakeFirst();
    return row ? toState(row) : null;
  }

  async save(s: HeartbeatState, at: Date): Promise<Date> {
    const values = { frequency: s.frequency, enabled: s.enabled, last_heartbeat: s.lastHeartbeat, next_heartbeat: s.nextHeartbeat, updated_at: at };
    const row = await this.db
      .insertInto('heartbeats')
      .values({ user_id: this.userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .returning('updated_at')
      .executeTakeFirstOrThrow();
    return row.updated_at;
  }

  async delete(): Promise<boolean> {
    const r = await this.db.deleteFrom('heartbeats').where('user_id', '=', this.userId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async claimDue(now: Date): Promise<HeartbeatState | null> {
    const row = await this.db
      .selectFrom('heartbeats')
      .select(COLUMNS)
      .where('user_id', '=', this.userId)
      .where('enabled', '=', true)
      .where('next_heartbeat', '<=', now)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    return row ? toState(row) : null;
  }

  async recordSent(sentAt: Date, next: Date): Promise<void> {
    await this.db.updateTable('heartbeats').set({ last_heartbeat: sentAt, next_heartbeat: next }).where('user_id', '=', this.userId).execute();
  }
}

export class KyselyHeartbeatSchedule implements HeartbeatSchedule {
  constructor(private readonly db: Kysely<Database>) {}

  async dueUsers(now: Date, limit: number): Promise<UserId[]> {
    const rows = await this.db
      .selectFrom('heartbeats')
      .select('user_id')
      .where('enabled', '=', true)
      .where('next_heartbeat', '<=', now)
      .orderBy('next_heartbeat')
      .limit(limit)
      .execute();
    return rows.map((r) => r.user_id as UserId);
  }
}
