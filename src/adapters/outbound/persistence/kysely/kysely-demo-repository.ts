import type { Kysely, Selectable } from 'kysely';
import type { DemoRepository, DemoSubmission } from '../../../../application/ports/demo-repository.port.js';
import type { Database, SkillDemosTable } from './database.js';

export class KyselyDemoRepository implements DemoRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(userId: string, d: Omit<DemoSubmission, 'id' | 'status' | 'createdAt'>): Promise<DemoSubmission> {
    const row = await this.db
      .insertInto('skill_demos')
      .values({ user_id: userId, title: d.title, artist: d.artist, label: d.label, link: d.link })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toDemo(row);
  }

  async list(): Promise<DemoSubmission[]> {
    return (await this.db.selectFrom('skill_demos').selectAll().orderBy('created_at').orderBy('id').execute()).map(toDemo);
  }
}

const toDemo = (r: Selectable<SkillDemosTable>): DemoSubmission => ({
  id: r.id, title: r.title, artist: r.artist, label: r.label, link: r.link, status: r.status, createdAt: r.created_at,
});
