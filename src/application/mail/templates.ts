import type { OutgoingMail } from '../ports/mailer.port.js';

/**
 * The transactional mails, as plain functions: no template engine, nothing to configure.
 * The name is user input, so it is escaped in the html part; the link is escaped too because
 * it sits inside an attribute.
 */

export function verificationMail(input: { to: string; name: string; link: string }): OutgoingMail {
  return compose(input.to, 'Verify your e-mail address', input.name, [
    'Please confirm your e-mail address by opening this link:',
    { link: input.link },
    'If you did not create an account, you can ignore this mail.',
  ]);
}

export function passwordResetMail(input: { to: string; name: string; link: string; expiresInMinutes: number }): OutgoingMail {
  return compose(input.to, 'Reset your password', input.name, [
    'Someone asked to reset the password of your account. To choose a new one, open this link:',
    { link: input.link },
    `The link works once and expires in ${input.expiresInMinutes} minutes.`,
    'If you did not ask for this, you can ignore this mail: your password stays as it is.',
  ]);
}

type Paragraph = string | { link: string };

function compose(to: string, subject: string, name: string, paragraphs: Paragraph[]): OutgoingMail {
  const text = [`Hello ${name},`, ...paragraphs.map((p) => (typeof p === 'string' ? p : p.link))].join('\n\n') + '\n';
  const html = [`<p>Hello ${escapeHtml(name)},</p>`, ...paragraphs.map(toHtml)].join('\n');
  return { to, subject, text, html: `<!doctype html>\n<html><body>\n${html}\n</body></html>\n` };
}

function toHtml(p: Paragraph): string {
  if (typeof p === 'string') return `<p>${escapeHtml(p)}</p>`;
  const href = escapeHtml(p.link);
  return `<p><a href="${href}">${href}</a></p>`;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
