import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { AgentCredentialName } from '../ports/agent-credential-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** GET /api/agent?action=credentials: which credentials are configured (names only), of one agent when `agentId` is given. */
@injectable()
export class ListAgentCredentials {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentCredentials'>) {}

  async execute(actor: Pick<Actor, 'userId'>, input: { agentId?: string }): Promise<AgentCredentialName[]> {
    return this.uow.asUser(actor.userId, async (s) => {
      if (input.agentId !== undefined && !(await s.agents.get(input.agentId))) throw new NotFoundError('Agent');
      return s.agentCredentials.names(input.agentId ?? null);
    });
  }
}
