import type { SkillSlug } from '../../domain/skills/skill-catalog-ids.js';

/** A skill installed on an agent (CONTRACT.md section 7: `{agentId, skillId, installedAt}`). */
export interface InstalledSkillRecord {
  agentId: string;
  skillId: SkillSlug;
  /** The manifest version at install time. */
  version: string;
  /** False after `update_skill` disabled it: still installed, not offered to the model. */
  enabled: boolean;
  installedAt: Date;
}

/** The acting user's skill installs (RLS: their own agents only). */
export interface SkillInstallRepository {
  /** The agent's installs, oldest first; empty for an agent that is not the user's. */
  listForAgent(agentId: string): Promise<InstalledSkillRecord[]>;
}
