import { sql, type Kysely } from 'kysely';
import type { ScheduledEvent, ScheduledEventRepository } from '../../../../application/ports/scheduled-event-repository.port.js';
import type { Database } from './database.js';

export class KyselyScheduledEventRepository implements ScheduledEventRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private columns() {
    // the date as its text: the driver would turn a date into a local-time Date
    return ['id', 'title', sql<string>`event_date::text`.as('date'), 'event_time', 'channels', 'created_at'] as const;
  }

  async insert(userId: string, e: { title: string; date: string; time: string; channels: string[] }): Promise<ScheduledEvent> {
    const row = await this.db
      .insertInto('skill_events')
      .values({ user_id: userId, title: e.title, event_date: e.date, event_time: e.time, channels: e.channels })
      .returning(this.columns())
      .executeTakeFirstOrThrow();
    return toEvent(row);
  }

  async list(): Promise<ScheduledEvent[]> {
    const rows = await this.db.selectFrom('skill_events').select(this.columns()).orderBy('event_date').orderBy('event_time').orderBy('created_at').orderBy('id').execute();
    return rows.map(toEvent);
  }
}

const toEvent = (r: { id: string; title: string; date: string; event_time: string; channels: string[]; created_at: Date }): ScheduledEvent => ({
  id: r.id, title: r.title, date: r.date, time: r.event_time, channels: r.channels, createdAt: r.created_at,
});
