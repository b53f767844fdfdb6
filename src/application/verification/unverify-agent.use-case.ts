import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** DELETE /api/agents/:id/verify: verified true → false; on an unverified agent it changes nothing. */
@injectable()
export class UnverifyAgent {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentVerifications'>) {}

  async execute(actor: Actor, agentId: string): Promise<void> {
    await this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.agents.get(agentId))) throw new NotFoundError('Agent');
      await s.agentVerifications.clear(agentId);
    });
  }
}
