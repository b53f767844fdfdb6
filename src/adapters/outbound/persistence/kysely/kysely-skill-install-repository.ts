import type { Kysely } from 'kysely';
import type { InstalledSkillRecord, SkillInstallRepository } from '../../../../application/ports/skill-install-repository.port.js';
import type { SkillSlug } from '../../../../domain/skills/skill-catalog-ids.js';
import type { Database } from './database.js';

export class KyselySkillInstallRepository implements SkillInstallRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async listForAgent(agentId: string): Promise<InstalledSkillRecord[]> {
    const rows = await this.db
      .selectFrom('skill_installs')
      .select(['agent_id', 'skill_id', 'version', 'enabled', 'installed_at'])
      .where('agent_id', '=', agentId)
      .orderBy('installed_at')
      .orderBy('skill_id')
      .execute();
    return rows.map((r) => ({ agentId: r.agent_id, skillId: r.skill_id as SkillSlug, version: r.version, enabled: r.enabled, installedAt: r.installed_at }));
  }
}
