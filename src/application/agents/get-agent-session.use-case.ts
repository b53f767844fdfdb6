import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { AgentMessage } from '../ports/agent-message-repository.port.js';
import type { AgentSession } from '../ports/agent-session-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** A session's messages are returned whole up to this many (the newest ones), oldest first. */
export const SESSION_MESSAGES_RETURNED = 1000;

/** GET /api/agent?action=session: one of the caller's sessions with its messages; another user's is 404. */
@injectable()
export class GetAgentSession {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agentSessions'>) {}

  async execute(actor: Pick<Actor, 'userId'>, sessionId: string): Promise<{ session: AgentSession; messages: AgentMessage[] }> {
    return this.uow.asUser(actor.userId, async (s) => {
      const session = await s.agentSessions.get(sessionId);
      if (!session) throw new NotFoundError('Session');
      return { session, messages: await s.agentSessions.messages(session.id, SESSION_MESSAGES_RETURNED) };
    });
  }
}
