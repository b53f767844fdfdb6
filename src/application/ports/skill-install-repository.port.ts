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
  /** All the user's installs, oldest first. */
  listForUser(): Promise<InstalledSkillRecord[]>;
  /**
   * Serialises installs on one agent until the transaction ends, so counting against the plan's
   * limit and inserting cannot interleave with another install on the same agent.
   */
  lockAgent(agentId: string): Promise<void>;
  /** How many skills the agent has installed, enabled or not. */
  countForAgent(agentId: string): Promise<number>;
  /** Whether the agent has `skillId` installed. */
  isInstalled(agentId: string, skillId: SkillSlug): Promise<boolean>;
  /** Installs `skillId` on the user's agent at `version`; false when it already was (nothing changes). */
  install(install: { agentId: string; skillId: SkillSlug; version: string }): Promise<boolean>;
  /** Sets `enabled`; null when the skill is not installed on that agent of the user's. */
  setEnabled(agentId: string, skillId: string, enabled: boolean): Promise<InstalledSkillRecord | null>;
}

/** Counts across all users, without saying whose (the catalog's `downloads`). */
export interface SkillInstallStats {
  /** Installs per skill id; a skill nobody installed is absent. */
  countsBySkill(): Promise<Map<string, number>>;
}

/** The system's read of an agent's installs: the mailbox worker builds the agent's tools from it. */
export interface SystemSkillInstalls {
  /** The agent's installs, oldest first, enabled or not. */
  listForAgent(agentId: string): Promise<InstalledSkillRecord[]>;
}
