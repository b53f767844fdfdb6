import { inject, injectable } from 'tsyringe';
import type { Agent } from '../../domain/agents/agent.js';
import type { Instance } from '../../domain/agents/instance.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** One of the caller's agents with the instance hosting it (null before the provision job made it); another user's is 404. */
@injectable()
export class GetAgent {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'instances'>) {}

  async execute(actor: Actor, agentId: string): Promise<{ agent: Agent; instance: Instance | null }> {
    const found = await this.uow.asUser(actor.userId, async (s) => {
      const agent = await s.agents.get(agentId);
      return agent ? { agent, instance: await s.instances.get() } : null;
    });
    if (!found) throw new NotFoundError('Agent');
    return found;
  }
}
