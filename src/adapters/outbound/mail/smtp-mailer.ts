import { createTransport } from 'nodemailer';
import { UpstreamUnavailableError } from '../../../application/errors.js';
import type { Mailer, OutgoingMail } from '../../../application/ports/mailer.port.js';

export interface SmtpMailerOptions {
  /** SMTP_URL, e.g. `smtp://user:pass@relay:587` (STARTTLS when offered) or `smtps://…:465`. */
  url: string;
  /** MAIL_FROM, e.g. `Agent Host <no-reply@example.com>`. */
  from: string;
  /**
   * Applies to each phase: TCP connect, waiting for the greeting, and any silence once talking.
   * Nodemailer's defaults (up to 10 minutes) would hold a sign-up request hostage to a dead relay.
   */
  timeoutMs?: number;
}

const UPSTREAM = 'mail relay';

/**
 * Sends through an SMTP relay, one connection per message: transactional volume is low, and a
 * fresh connection cannot inherit a half-broken session from an earlier failure.
 */
export class SmtpMailer implements Mailer {
  private readonly transport;

  constructor(options: SmtpMailerOptions) {
    const timeout = options.timeoutMs ?? 5_000;
    this.transport = createTransport(
      {
        url: options.url,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
        dnsTimeout: timeout,
        // The body carries single-use tokens: nodemailer must never log it.
        logger: false,
        debug: false,
      },
      { from: options.from },
    );
  }

  async send(mail: OutgoingMail): Promise<void> {
    try {
      await this.transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    } catch (err) {
      // The message stays generic (it may reach a client); the vendor error, which can quote the
      // relay's reply, rides along as the cause for the log.
      throw new UpstreamUnavailableError(UPSTREAM, `${UPSTREAM} failed (${describe(err)})`, err);
    }
  }

  close(): void {
    this.transport.close();
  }
}

function describe(err: unknown): string {
  const e = err as { code?: unknown; responseCode?: unknown };
  const parts = [typeof e.code === 'string' ? e.code : 'error', typeof e.responseCode === 'number' ? String(e.responseCode) : ''];
  return parts.filter(Boolean).join(' ');
}
