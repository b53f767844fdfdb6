import { inject, injectable } from 'tsyringe';
import { UserNotFoundError, WrongPasswordError } from '../../domain/accounts/accounts.errors.js';
import { sessionIdOf, type Actor } from '../auth/actor.js';
import { CredentialRevocations } from '../auth/credential-revocations.js';
import { PASSWORD_HASHER, type PasswordHasher } from '../ports/password-hasher.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AccountsUserScope } from '../ports/scopes/accounts-scope.port.js';

/** Changes the password after checking the current one; every other session ends. */
@injectable()
export class ChangePassword {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AccountsUserScope, 'sessions' | 'users'>,
    @inject(PASSWORD_HASHER) private readonly hasher: PasswordHasher,
    @inject(CredentialRevocations) private readonly revocations: CredentialRevocations,
  ) {}

  async execute(actor: Actor, input: { currentPassword: string; newPassword: string }): Promise<void> {
    const current = await this.uow.asUser(actor.userId, (s) => s.users.passwordHash());
    if (current === null) throw new UserNotFoundError();
    if (!(await this.hasher.verify(current, input.currentPassword))) throw new WrongPasswordError();
    const next = await this.hasher.hash(input.newPassword);
    const keep = sessionIdOf(actor.credential);
    const ended = await this.uow.asUser(actor.userId, async (s) => {
      await s.users.setPasswordHash(next);
      return s.sessions.deleteAllOf(actor.userId, keep);
    });
    await this.revocations.sessionsEnded(ended);
  }
}
