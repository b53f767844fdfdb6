import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { AgentSession } from '../ports/agent-session-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** At most this many sessions are listed, newest first. */
export const SESSIONS_LISTED = 200;

/** GET /api/agent?action=sessions: the caller's sessions, of one of their agents when `agentId` is given (another user's: 404). */
@injectable()
export class ListAgentSessions {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentSessions'>) {}

  async execute(actor: Pick<Actor, 'userId'>, input: { agentId?: string }): Promise<AgentSession[]> {
    return this.uow.asUser(actor.userId, async (s) => {
      if (input.agentId !== undefined && !(await s.agents.get(input.agentId))) throw new NotFoundError('Agent');
      return s.agentSessions.list(input.agentId ?? null, SESSIONS_LISTED);
    });
  }
}
