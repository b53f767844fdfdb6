import type { Kysely, Selectable } from 'kysely';
import type { RoyaltyEntry, RoyaltyRepository } from '../../../../application/ports/royalty-repository.port.js';
import type { Database, SkillRoyaltiesTable } from './database.js';

export class KyselyRoyaltyRepository implements RoyaltyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(userId: string, e: { source: string; amountCents: number; period: string | null }): Promise<RoyaltyEntry> {
    const row = await this.db
      .insertInto('skill_royalties')
      .values({ user_id: userId, source: e.source, amount_cents: e.amountCents, period: e.period })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toEntry(row);
  }

  async list(filter: { source?: string; period?: string }): Promise<RoyaltyEntry[]> {
    let q = this.db.selectFrom('skill_royalties').selectAll();
    if (filter.source !== undefined) q = q.where('source', '=', filter.source);
    if (filter.period !== undefined) q = q.where('period', '=', filter.period);
    return (await q.orderBy('created_at').orderBy('id').execute()).map(toEntry);
  }
}

const toEntry = (r: Selectable<SkillRoyaltiesTable>): RoyaltyEntry => ({
  id: r.id, source: r.source, amountCents: Number(r.amount_cents), period: r.period, createdAt: r.created_at,
});
