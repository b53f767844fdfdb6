import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import type { InstalledSkill } from './list-agent-skills.use-case.js';

/**
 * POST /api/agent update_skill: enables or disables a skill installed on one of the caller's
 * agents. Another user's agent is 404 `Agent`; a skill not installed on it is 404 `Installed
 * skill`, and nothing changes. A disabled skill stays installed (and counts toward the plan's
 * limit) but is not offered to the model.
 */
@injectable()
export class UpdateAgentSkill {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'skillInstalls'>) {}

  async execute(actor: Pick<Actor, 'userId'>, input: { agentId: string; skillId: string; enabled: boolean }): Promise<InstalledSkill> {
    return this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.agents.get(input.agentId))) throw new NotFoundError('Agent');
      const updated = await s.skillInstalls.setEnabled(input.agentId, input.skillId, input.enabled);
      if (!updated) throw new NotFoundError('Installed skill');
      return updated;
    });
  }
}
