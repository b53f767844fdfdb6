import { logDevMail } from '../../../application/mail/dev-mail-log.js';
import type { Logger } from '../../../application/ports/logger.port.js';
import type { Mailer, OutgoingMail } from '../../../application/ports/mailer.port.js';
import type { UnitOfWork } from '../../../application/ports/unit-of-work.port.js';

/**
 * The default mailer when no SMTP_URL is set: the mail is kept in the outbox table and, on a
 * local service (or with ALLOW_UNSAFE_DEFAULTS=true), printed whole to the log. That log line is the development delivery channel and
 * the only place a token may appear in the log (CONTRACT.md section 2).
 */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly log: Logger,
    private readonly printToLog: boolean,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    await this.uow.asSystem((s) => s.outbox.add('mail', null, { to: mail.to, subject: mail.subject, text: mail.text }));
    if (this.printToLog) logDevMail(this.log, mail);
  }
}
