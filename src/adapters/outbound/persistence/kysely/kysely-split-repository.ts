import type { Kysely, Selectable } from 'kysely';
import type { SplitExecution, SplitRepository, SplitRule } from '../../../../application/ports/split-repository.port.js';
import type { Allocation, SplitShare } from '../../../../domain/skills/split.js';
import type { Database, SkillSplitExecutionsTable, SkillSplitRulesTable } from './database.js';
import { isUuid } from './skill-state-ids.js';

export class KyselySplitRepository implements SplitRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertRule(userId: string, r: { splits: SplitShare[]; thresholdCents: number }): Promise<SplitRule> {
    const row = await this.db
      .insertInto('skill_split_rules')
      .values({ user_id: userId, splits: JSON.stringify(r.splits), threshold_cents: r.thresholdCents })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRule(row);
  }

  async getRule(id: string): Promise<SplitRule | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.selectFrom('skill_split_rules').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRule(row) : null;
  }

  async getRuleForUpdate(id: string): Promise<SplitRule | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.selectFrom('skill_split_rules').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    return row ? toRule(row) : null;
  }

  async listRules(): Promise<SplitRule[]> {
    const rows = await this.db.selectFrom('skill_split_rules').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toRule);
  }

  async setPending(id: string, pendingCents: number): Promise<void> {
    await this.db.updateTable('skill_split_rules').set({ pending_cents: pendingCents }).where('id', '=', id).execute();
  }

  async insertExecution(userId: string, e: { ruleId: string; amountCents: number; allocations: Allocation[] }): Promise<SplitExecution> {
    const row = await this.db
      .insertInto('skill_split_executions')
      .values({ user_id: userId, rule_id: e.ruleId, amount_cents: e.amountCents, allocations: JSON.stringify(e.allocations) })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toExecution(row);
  }

  async listExecutions(ruleId?: string): Promise<SplitExecution[]> {
    if (ruleId !== undefined && !isUuid(ruleId)) return [];
    let q = this.db.selectFrom('skill_split_executions').selectAll();
    if (ruleId !== undefined) q = q.where('rule_id', '=', ruleId);
    const rows = await q.orderBy('created_at').orderBy('id').execute();
    return rows.map(toExecution);
  }
}

const toRule = (r: Selectable<SkillSplitRulesTable>): SplitRule => ({
  id: r.id, splits: r.splits as SplitShare[], thresholdCents: Number(r.threshold_cents), pendingCents: Number(r.pending_cents), createdAt: r.created_at,
});

const toExecution = (r: Selectable<SkillSplitExecutionsTable>): SplitExecution => ({
  id: r.id, ruleId: r.rule_id, amountCents: Number(r.amount_cents), allocations: r.allocations as Allocation[], createdAt: r.created_at,
});
