import { inject, injectable } from 'tsyringe';
import { EMAIL_VERIFICATION_TTL_MS, normalizeEmail } from '../../domain/accounts/account-rules.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AccountsSystemScope } from '../ports/scopes/accounts-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { newSecretToken, sha256 } from '../shared/secret-tokens.js';
import { AccountMail } from './account-mail.js';

/**
 * Sends a new verification mail to an account whose address is not verified yet. The caller
 * learns nothing: the answer is the same whether the account exists, is verified or not, and the
 * work done (one lookup, maybe two inserts) does not wait for the relay.
 */
@injectable()
export class ResendVerification {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AccountsSystemScope, 'users' | 'emailVerifications' | 'mailOutbox' | 'jobs'>,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(AccountMail) private readonly mail: AccountMail,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(input: { email: string }): Promise<void> {
    const email = normalizeEmail(input.email);
    const token = newSecretToken(this.ids);
    const mail = await this.uow.asSystem(async (s) => {
      const user = await s.users.findByEmail(email);
      if (!user || user.emailVerified) return null;
      await s.emailVerifications.issue(sha256(token), user.id, new Date(this.clock.now().getTime() + EMAIL_VERIFICATION_TTL_MS), { email: user.email });
      return this.mail.stageVerification(s, user, token);
    });
    this.mail.committed(mail);
  }
}
