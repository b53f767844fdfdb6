import { inject, injectable } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';
import type { MailboxOutcome } from '../ports/agent-mailbox.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/**
 * Where one of the user's messages stands in its agent's mailbox (the websocket reads it when the
 * mailbox announces the message finished, to tell a failed answer); null when it is not theirs.
 */
@injectable()
export class ReadMessageOutcome {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agentMailbox'>) {}

  execute(userId: UserId, messageId: string): Promise<MailboxOutcome | null> {
    return this.uow.asUser(userId, (s) => s.agentMailbox.outcome(messageId));
  }
}
