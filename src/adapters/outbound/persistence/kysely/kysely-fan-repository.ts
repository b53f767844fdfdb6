import type { Kysely, Selectable } from 'kysely';
import type { Fan, FanRepository } from '../../../../application/ports/fan-repository.port.js';
import type { Database, SkillFansTable } from './database.js';

export class KyselyFanRepository implements FanRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(userId: string, f: Omit<Fan, 'id' | 'createdAt'>): Promise<Fan> {
    const row = await this.db
      .insertInto('skill_fans')
      .values({ user_id: userId, name: f.name, email: f.email, city: f.city, shows_attended: f.showsAttended, purchases: f.purchases, streams: f.streams })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toFan(row);
  }

  async list(): Promise<Fan[]> {
    return (await this.db.selectFrom('skill_fans').selectAll().orderBy('created_at').orderBy('id').execute()).map(toFan);
  }
}

const toFan = (r: Selectable<SkillFansTable>): Fan => ({
  id: r.id, name: r.name, email: r.email, city: r.city, showsAttended: r.shows_attended, purchases: r.purchases, streams: r.streams, createdAt: r.created_at,
});
