import { inject, injectable } from 'tsyringe';
import { InvalidTokenError } from '../../domain/accounts/accounts.errors.js';
import { CredentialRevocations } from '../auth/credential-revocations.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { PASSWORD_HASHER, type PasswordHasher } from '../ports/password-hasher.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AccountsSystemScope } from '../ports/scopes/accounts-scope.port.js';
import { sha256 } from '../shared/secret-tokens.js';

/**
 * Sets a new password from a reset link: the token works once, and every session ends. The link
 * proved who holds the mailbox, so OAuth identities whose provider never vouched for the address
 * are unlinked too: whoever made the account through one does not keep a way in.
 */
@injectable()
export class ResetPassword {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AccountsSystemScope, 'oauthIdentities' | 'passwordResets' | 'sessions' | 'users'>,
    @inject(PASSWORD_HASHER) private readonly hasher: PasswordHasher,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(CredentialRevocations) private readonly revocations: CredentialRevocations,
  ) {}

  async execute(input: { token: string; password: string }): Promise<void> {
    const hash = await this.hasher.hash(input.password);
    const ended = await this.uow.asSystem(async (s) => {
      const used = await s.passwordResets.consume(sha256(input.token), this.clock.now());
      if (!used) throw new InvalidTokenError();
      await s.users.setPasswordHash(used.userId, hash);
      await s.oauthIdentities.unlinkUnverified(used.userId);
      return s.sessions.deleteAllOf(used.userId, null);
    });
    await this.revocations.sessionsEnded(ended);
  }
}
