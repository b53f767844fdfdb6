import { inject, injectable } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';
import type { AgentMessage } from '../ports/agent-message-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** One of the user's agent messages (the websocket pushes each as it is stored); null when not theirs. */
@injectable()
export class ReadAgentMessage {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agentMessages'>) {}

  execute(userId: UserId, messageId: string): Promise<AgentMessage | null> {
    return this.uow.asUser(userId, (s) => s.agentMessages.get(messageId));
  }
}
