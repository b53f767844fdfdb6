import { inject, injectable } from 'tsyringe';
import { UserNotFoundError } from '../../domain/accounts/accounts.errors.js';
import type { Actor } from '../auth/actor.js';
import { CredentialRevocations } from '../auth/credential-revocations.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AccountsUserScope } from '../ports/scopes/accounts-scope.port.js';

/**
 * Deletes the caller's account and, through the foreign keys, everything it owns; user.deleted is
 * written in the same transaction. Its sessions and keys stop working here at once.
 */
@injectable()
export class DeleteAccount {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AccountsUserScope, 'apiKeys' | 'outbox' | 'sessions' | 'users'>,
    @inject(CredentialRevocations) private readonly revocations: CredentialRevocations,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Actor): Promise<void> {
    const { sessions, keys } = await this.uow.asUser(actor.userId, async (s) => {
      const keys = (await s.apiKeys.list()).map((k) => k.id);
      const sessions = await s.sessions.deleteAllOf(actor.userId, null);
      if (!(await s.users.delete())) throw new UserNotFoundError();
      await s.outbox.add('user.deleted', actor.userId, { id: actor.userId, email: actor.email, deletedAt: this.clock.now().toISOString() });
      return { sessions, keys };
    });
    await this.revocations.sessionsEnded(sessions);
    await this.revocations.keysDeleted(keys);
  }
}
