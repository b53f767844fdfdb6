import { sql, type Kysely } from 'kysely';
import type { InstalledSkillRecord, SkillInstallRepository, SkillInstallStats, SystemSkillInstalls } from '../../../../application/ports/skill-install-repository.port.js';
import type { SkillSlug } from '../../../../domain/skills/skill-catalog-ids.js';
import type { Database } from './database.js';

const COLUMNS = ['agent_id', 'skill_id', 'version', 'enabled', 'installed_at'] as const;
export type SkillInstallRow = { agent_id: string; skill_id: string; version: string; enabled: boolean; installed_at: Date };
export const toRecord = (r: SkillInstallRow): InstalledSkillRecord => ({ agentId: r.agent_id, skillId: r.skill_id as SkillSlug, version: r.version, enabled: r.enabled, installedAt: r.installed_at });

export class KyselySkillInstallRepository implements SkillInstallRepository {
  constructor(private readonly db: Kysely<Database>, private readonly userId: string) {}

  async listForAgent(agentId: string): Promise<InstalledSkillRecord[]> {
    const rows = await this.db.selectFrom('skill_installs').select(COLUMNS).where('agent_id', '=', agentId).orderBy('installed_at').orderBy('skill_id').execute();
    return rows.map(toRecord);
  }

  async listForUser(): Promise<InstalledSkillRecord[]> {
    const rows = await this.db.selectFrom('skill_installs').select(COLUMNS).orderBy('installed_at').orderBy('agent_id').orderBy('skill_id').execute();
    return rows.map(toRecord);
  }

  async lockAgent(agentId: string): Promise<void> {
    // transaction-scoped: released at commit or rollback
    await sql`select pg_advisory_xact_lock(hashtextextended(${`skill-installs:${agentId}`}, 0))`.execute(this.db);
  }

  async countForAgent(agentId: string): Promise<number> {
    const r = await this.db.selectFrom('skill_installs').select((eb) => eb.fn.countAll<string>().as('n')).where('agent_id', '=', agentId).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async isInstalled(agentId: string, skillId: SkillSlug): Promise<boolean> {
    const r = await this.db.selectFrom('skill_installs').select('skill_id').where('agent_id', '=', agentId).where('skill_id', '=', skillId).executeTakeFirst();
    return r !== undefined;
  }

  async install(i: { agentId: string; skillId: SkillSlug; version: string }): Promise<boolean> {
    const r = await this.db
      .insertInto('skill_installs')
      .values({ agent_id: i.agentId, user_id: this.userId, skill_id: i.skillId, version: i.version })
      .onConflict((oc) => oc.columns(['agent_id', 'skill_id']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async setEnabled(agentId: string, skillId: string, enabled: boolean): Promise<InstalledSkillRecord | null> {
    const row = await this.db
      .updateTable('skill_installs')
      .set({ enabled, updated_at: sql<Date>`clock_timestamp()` })
      .where('agent_id', '=', agentId)
      .where('skill_id', '=', skillId)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }
}

/** Through the SECURITY DEFINER function of migration 0017: counts only, never whose. */
export class KyselySkillInstallStats implements SkillInstallStats {
  constructor(private readonly db: Kysely<Database>) {}

  async countsBySkill(): Promise<Map<string, number>> {
    const { rows } = await sql<{ skill_id: string; installs: string }>`select skill_id, installs from skill_install_counts()`.execute(this.db);
    return new Map(rows.map((r) => [r.skill_id, Number(r.installs)]));
  }
}

export class KyselySystemSkillInstalls implements SystemSkillInstalls {
  constructor(private readonly db: Kysely<Database>) {}

  async listForAgent(agentId: string): Promise<InstalledSkillRecord[]> {
    const rows = await this.db.selectFrom('skill_installs').select(COLUMNS).where('agent_id', '=', agentId).orderBy('installed_at').orderBy('skill_id').execute();
    return rows.map(toRecord);
  }
}
