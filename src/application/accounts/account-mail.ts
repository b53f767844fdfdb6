import { inject, injectable } from 'tsyringe';
import { PASSWORD_RESET_TTL_MS } from '../../domain/accounts/account-rules.js';
import type { User } from '../../domain/accounts/user.js';
import { AUTH_SETTINGS, type AuthSettings } from '../auth/auth-settings.js';
import { passwordResetMail, verificationMail } from '../mail/templates.js';
import { MAILER, type Mailer } from '../ports/mailer.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';

/**
 * The mails of the account flows, sent after the change committed. A relay failure is logged
 * (never with the link) and does not undo the account change: the user can ask again.
 */
@injectable()
export class AccountMail {
  constructor(
    @inject(MAILER) private readonly mailer: Mailer,
    @inject(AUTH_SETTINGS) private readonly settings: AuthSettings,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async sendVerification(user: Pick<User, 'email' | 'name'>, token: string): Promise<void> {
    const link = `${this.settings.appUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}`;
    await this.deliver(verificationMail({ to: user.email, name: user.name, link }), 'verification');
  }

  async sendPasswordReset(user: Pick<User, 'email' | 'name'>, token: string): Promise<void> {
    const link = `${this.settings.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
    await this.deliver(
      passwordResetMail({ to: user.email, name: user.name, link, expiresInMinutes: PASSWORD_RESET_TTL_MS / 60_000 }),
      'password reset',
    );
  }

  private async deliver(mail: Parameters<Mailer['send']>[0], kind: string): Promise<void> {
    try {
      await this.mailer.send(mail);
    } catch (err) {
      this.log.error({ err, kind }, 'mail delivery failed');
    }
  }
}
