import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { AgentMessage } from '../ports/agent-message-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** A page of one of the caller's agents' messages, newest first; another user's agent is 404. */
@injectable()
export class ListAgentMessages {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentMessages'>) {}

  async execute(actor: Actor, agentId: string, page: { limit: number; offset: number }): Promise<{ messages: AgentMessage[]; total: number }> {
    const found = await this.uow.asUser(actor.userId, async (s) => ((await s.agents.get(agentId)) ? s.agentMessages.page(agentId, page.limit, page.offset) : null));
    if (!found) throw new NotFoundError('Agent');
    return found;
  }
}
