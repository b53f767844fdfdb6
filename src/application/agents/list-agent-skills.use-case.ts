import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { InstalledSkillRecord } from '../ports/skill-install-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** An installed skill (CONTRACT.md section 7 "installed skill"), plus whether it is enabled. */
export type InstalledSkill = Pick<InstalledSkillRecord, 'agentId' | 'skillId' | 'installedAt' | 'enabled'>;

/**
 * GET /api/agent?action=skills: the caller's installed skills, of one agent when `agentId` is
 * given (another user's: 404), else of all their agents; oldest install first.
 */
@injectable()
export class ListAgentSkills {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'skillInstalls'>) {}

  async execute(actor: Pick<Actor, 'userId'>, input: { agentId?: string }): Promise<InstalledSkill[]> {
    const { agentId } = input;
    return this.uow.asUser(actor.userId, async (s) => {
      if (agentId === undefined) return s.skillInstalls.listForUser();
      if (!(await s.agents.get(agentId))) throw new NotFoundError('Agent');
      return s.skillInstalls.listForAgent(agentId);
    });
  }
}
