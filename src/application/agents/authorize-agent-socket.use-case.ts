import { inject, injectable } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type SystemWork, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsSystemScope, AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { sha256 } from '../shared/secret-tokens.js';
import { GatewayTokenInvalidError } from './runtime.errors.js';

export type SocketCredential = { kind: 'user'; actor: Actor } | { kind: 'gateway-token'; token: string };

/**
 * Who may open `/api/agents/:id/ws` (CONTRACT.md section 7 `websocketUrl`): the agent's owner
 * signed in (the session cookie; the edge checks Origin), or the owner's instance by its gateway
 * token. Another user's agent, or one that does not exist: 404; an unknown token: 401.
 */
@injectable()
export class AuthorizeAgentSocket {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: SystemWork<AgentsSystemScope, 'instances' | 'agents'> & UserWork<AgentsUserScope, 'agents'>) {}

  async execute(credential: SocketCredential, agentId: string): Promise<{ userId: UserId }> {
    if (credential.kind === 'user') {
      const agent = await this.uow.asUser(credential.actor.userId, (s) => s.agents.get(agentId));
      if (!agent) throw new NotFoundError('Agent');
      return { userId: credential.actor.userId };
    }
    const hash = sha256(credential.token);
    const found = await this.uow.asSystem(async (s) => {
      const userId = await s.instances.ownerOfToken(hash);
      return userId ? { userId, agent: await s.agents.get(agentId) } : null;
    });
    if (!found) throw new GatewayTokenInvalidError(false);
    if (!found.agent || found.agent.userId !== found.userId) throw new NotFoundError('Agent');
    return { userId: found.userId };
  }
}
