import type { Logger } from '../ports/logger.port.js';
import type { OutgoingMail } from '../ports/mailer.port.js';

const LINK = /https?:\/\/\S+/g;

/**
 * The development delivery channel (no SMTP_URL, on a local service): the whole mail in one log
 * line, then each link of it (a verification or reset link) as a line whose message is the link
 * alone, so a person copies it from the terminal instead of out of an escaped JSON string. Both
 * lines carry `devMail`: the only log lines a token may appear in (CONTRACT.md section 2).
 */
export function logDevMail(log: Logger, mail: Pick<OutgoingMail, 'to' | 'subject' | 'text'>): void {
  log.info({ devMail: { to: mail.to, subject: mail.subject, text: mail.text } }, 'development mail delivery (SMTP_URL unset)');
  for (const link of new Set(mail.text.match(LINK) ?? [])) log.info({ devMail: { to: mail.to, link } }, link);
}
