import { inject, injectable } from 'tsyringe';
import { normalizeEmail, PASSWORD_RESET_TTL_MS } from '../../domain/accounts/account-rules.js';
import { BotDetectedError } from '../../domain/accounts/accounts.errors.js';
import { BOT_DETECTOR, type BotDetector } from '../ports/bot-detector.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AccountsSystemScope } from '../ports/scopes/accounts-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { newSecretToken, sha256 } from '../shared/secret-tokens.js';
import { AccountMail } from './account-mail.js';

/**
 * Forgot-password. The caller learns nothing about whether the account exists: same answer,
 * and the mail is only written (with its delivery job) so the response time does not tell either.
 */
@injectable()
export class RequestPasswordReset {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AccountsSystemScope, 'passwordResets' | 'users' | 'mailOutbox' | 'jobs'>,
    @inject(BOT_DETECTOR) private readonly bots: BotDetector,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(AccountMail) private readonly mail: AccountMail,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** Resolves when the token and its mail (with its delivery job) are stored, or nothing was. */
  async execute(input: { email: string; botToken?: string | undefined; ip: string }): Promise<void> {
    if (!(await this.bots.isHuman({ token: input.botToken, ip: input.ip }))) throw new BotDetectedError();
    const token = newSecretToken(this.ids);
    const mail = await this.uow.asSystem(async (s) => {
      const found = await s.users.findByEmail(normalizeEmail(input.email));
      if (!found) return null;
      await s.passwordResets.issue(sha256(token), found.id, new Date(this.clock.now().getTime() + PASSWORD_RESET_TTL_MS), {});
      return this.mail.stagePasswordReset(s, found, token);
    });
    this.mail.committed(mail);
  }
}
