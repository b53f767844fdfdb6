import { inject, injectable } from 'tsyringe';
import { PASSWORD_RESET_TTL_MS } from '../../domain/accounts/account-rules.js';
import type { User } from '../../domain/accounts/user.js';
import type { UserId } from '../../domain/shared/ids.js';
import { AUTH_SETTINGS, type AuthSettings } from '../ports/auth-settings.port.js';
import { passwordResetMail, verificationMail } from '../mail/templates.js';
import { logDevMail } from '../mail/dev-mail-log.js';
import type { OutgoingMail } from '../ports/mailer.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import type { AccountsSystemScope } from '../ports/scopes/accounts-scope.port.js';
import { DELIVER_MAIL_JOB } from '../webhooks/webhook-jobs.js';
import { type MailDeliverySettings, MAIL_DELIVERY_SETTINGS } from '../ports/mail-delivery-settings.port.js';

/** The part of the token's transaction that keeps the mail. */
export type MailScope = Pick<AccountsSystemScope, 'mailOutbox' | 'jobs'>;

type Person = Pick<User, 'email' | 'name'> & { id?: UserId };

/**
 * The mails of the account flows. A mail is written to the outbox in the transaction that issues
 * its token, with its delivery job (the `mail` queue: retries, then a dead letter): a crash
 * between the commit and the send loses nothing, and a relay failure never undoes the account
 * change. Without a relay the outbox row is the development mailbox.
 */
@injectable()
export class AccountMail {
  constructor(
    @inject(MAIL_DELIVERY_SETTINGS) private readonly delivery: MailDeliverySettings,
    @inject(AUTH_SETTINGS) private readonly settings: AuthSettings,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  /** Inside the transaction that issued `token`. Returns the mail for `committed`. */
  async stageVerification(s: MailScope, user: Person, token: string): Promise<OutgoingMail> {
    // The console's page, which spends the token through GET /api/auth/verify-email and says so in words.
    const link = `${this.settings.appUrl}/verify-email?token=${encodeURIComponent(token)}`;
    return this.stage(s, user, verificationMail({ to: user.email, name: user.name, link }));
  }

  async stagePasswordReset(s: MailScope, user: Person, token: string): Promise<OutgoingMail> {
    const link = `${this.settings.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
    return this.stage(s, user, passwordResetMail({ to: user.email, name: user.name, link, expiresInMinutes: PASSWORD_RESET_TTL_MS / 60_000 }));
  }

  /** After the commit: the development channel prints the mail (never before: a rollback would print a dead token). */
  committed(mail: OutgoingMail | null): void {
    if (mail && this.delivery.printToLog && !this.delivery.relay) {
      logDevMail(this.log, mail);
    }
  }

  private async stage(s: MailScope, user: Person, mail: OutgoingMail): Promise<OutgoingMail> {
    const outboxId = await s.mailOutbox.add(mail, user.id ?? null);
    if (this.delivery.relay) await s.jobs.send({ queue: 'mail', kind: DELIVER_MAIL_JOB, data: { outboxId } });
    return mail;
  }
}
