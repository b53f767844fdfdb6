import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { AgentMessage } from '../ports/agent-message-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** The spec's figures: the last 10 messages, each cut to 100 characters. */
export const MEMORY_MESSAGES = 10;
export const MEMORY_MESSAGE_CHARS = 100;

/**
 * GET /api/agent?action=memory: the last 10 messages of the agent's active session, oldest first,
 * each cut to 100 characters (code points, so no character is split). The active session is the
 * agent's most recently created one; with none, `sessionId` is null and the list empty.
 */
@injectable()
export class ReadAgentSessionMemory {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentSessions'>) {}

  async execute(actor: Pick<Actor, 'userId'>, agentId: string): Promise<{ agentId: string; sessionId: string | null; messages: AgentMessage[] }> {
    return this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.agents.get(agentId))) throw new NotFoundError('Agent');
      const active = await s.agentSessions.latest(agentId);
      if (!active) return { agentId, sessionId: null, messages: [] };
      const messages = await s.agentSessions.messages(active.id, MEMORY_MESSAGES);
      return { agentId, sessionId: active.id, messages: messages.map((m) => ({ ...m, content: truncate(m.content) })) };
    });
  }
}

const truncate = (text: string): string => {
  const chars = Array.from(text);
  return chars.length <= MEMORY_MESSAGE_CHARS ? text : chars.slice(0, MEMORY_MESSAGE_CHARS).join('');
};
