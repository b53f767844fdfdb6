import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { AgentSession } from '../ports/agent-session-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** POST /api/agent create_session: a new conversation thread of one of the caller's agents (any status); another user's is 404. */
@injectable()
export class CreateAgentSession {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentSessions'>) {}

  async execute(actor: Pick<Actor, 'userId'>, agentId: string): Promise<AgentSession> {
    return this.uow.asUser(actor.userId, async (s) => {
      const agent = await s.agents.get(agentId);
      if (!agent) throw new NotFoundError('Agent');
      return s.agentSessions.create(agent.id, actor.userId);
    });
  }
}
