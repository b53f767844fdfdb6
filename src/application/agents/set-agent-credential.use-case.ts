import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { agentCredentialContext, type AgentCredentialName } from '../ports/agent-credential-repository.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/**
 * POST /api/agent set_credential: stores (or replaces) a credential of one of the caller's agents,
 * sealed with the secret box; the authenticated data binds user, agent and name, so a ciphertext
 * moved to another row opens for no one. The value is never returned; another user's agent is 404.
 */
@injectable()
export class SetAgentCredential {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentCredentials'>,
    @inject(SECRET_BOX) private readonly secrets: SecretBox,
  ) {}

  async execute(actor: Pick<Actor, 'userId'>, input: { agentId: string; name: string; value: string }): Promise<AgentCredentialName> {
    return this.uow.asUser(actor.userId, async (s) => {
      const agent = await s.agents.get(input.agentId);
      if (!agent) throw new NotFoundError('Agent');
      const sealed = this.secrets.seal(input.value, agentCredentialContext(actor.userId, agent.id, input.name));
      return s.agentCredentials.set({ agentId: agent.id, userId: actor.userId, name: input.name, sealed });
    });
  }
}
