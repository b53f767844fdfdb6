import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';

/**
 * POST /api/agent update_skill: enables or disables a skill installed on one of the caller's
 * agents. Skills cannot be installed yet, so every skill is uninstalled: 404 (after the agent's
 * own 404 for another user's agent), and nothing changes.
 */
@injectable()
export class UpdateAgentSkill {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<'agents'>) {}

  async execute(actor: Pick<Actor, 'userId'>, input: { agentId: string; skillId: string; enabled: boolean }): Promise<never> {
    const found = await this.uow.asUser(actor.userId, (s) => s.agents.get(input.agentId));
    if (!found) throw new NotFoundError('Agent');
    throw new NotFoundError('Installed skill');
  }
}
