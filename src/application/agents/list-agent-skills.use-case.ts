import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';

/** An installed skill (CONTRACT.md section 7 "installed skill"). */
export interface InstalledSkill {
  agentId: string;
  skillId: string;
  installedAt: Date;
}

/**
 * GET /api/agent?action=skills: the caller's installed skills, of one agent when `agentId` is
 * given (another user's: 404). Skills cannot be installed yet (the skills area is not built), so
 * the list is honestly empty.
 */
@injectable()
export class ListAgentSkills {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<'agents'>) {}

  async execute(actor: Pick<Actor, 'userId'>, input: { agentId?: string }): Promise<InstalledSkill[]> {
    if (input.agentId === undefined) return [];
    const agentId = input.agentId;
    const found = await this.uow.asUser(actor.userId, (s) => s.agents.get(agentId));
    if (!found) throw new NotFoundError('Agent');
    return [];
  }
}
