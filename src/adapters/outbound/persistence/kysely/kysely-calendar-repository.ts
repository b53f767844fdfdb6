import type { Kysely, Selectable } from 'kysely';
import type { CalendarEntry, CalendarRepository } from '../../../../application/ports/calendar-repository.port.js';
import type { Database, SkillCalendarEntriesTable } from './database.js';

export class KyselyCalendarRepository implements CalendarRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(userId: string, e: Omit<CalendarEntry, 'id' | 'createdAt'>): Promise<CalendarEntry> {
    const row = await this.db
      .insertInto('skill_calendar_entries')
      .values({ user_id: userId, title: e.title, starts_at: e.startsAt, ends_at: e.endsAt, notes: e.notes })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toEntry(row);
  }

  async list(range: { from?: Date; to?: Date }): Promise<CalendarEntry[]> {
    let q = this.db.selectFrom('skill_calendar_entries').selectAll();
    if (range.from) q = q.where('ends_at', '>', range.from);
    if (range.to) q = q.where('starts_at', '<', range.to);
    return (await q.orderBy('starts_at').orderBy('id').execute()).map(toEntry);
  }
}

const toEntry = (r: Selectable<SkillCalendarEntriesTable>): CalendarEntry => ({
  id: r.id, title: r.title, startsAt: r.starts_at, endsAt: r.ends_at, notes: r.notes, createdAt: r.created_at,
});
