import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { AgentMemory } from '../ports/agent-memory-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** GET /api/memory: the agent's whole memory; another user's or an unknown agent: 404. */
@injectable()
export class ReadAgentMemory {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentMemory'>) {}

  execute(actor: Pick<Actor, 'userId'>, agentId: string): Promise<AgentMemory> {
    return this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.agents.get(agentId))) throw new NotFoundError('Agent');
      return s.agentMemory.read(agentId);
    });
  }
}
