import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpMailer } from '../../../src/adapters/outbound/mail/smtp-mailer.js';
import { UpstreamUnavailableError } from '../../../src/application/errors.js';
import { passwordResetMail, verificationMail } from '../../../src/application/mail/templates.js';
import { startSmtpServer, type SmtpTestServer } from '../../support/mail/smtp-server.js';

const FROM = 'Agent Host <no-reply@agent.test>';
// Long, with '=' and '&': forces quoted-printable soft breaks, so the test proves the link survives them.
const LINK = `http://localhost:3000/api/auth/verify-email?token=${'Ab9_-'.repeat(16)}&x=1`;

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function smtp(options?: Parameters<typeof startSmtpServer>[0]): Promise<SmtpTestServer> {
  const server = await startSmtpServer(options);
  cleanup.push(() => server.close());
  return server;
}

function mailer(url: string, timeoutMs = 2_000): SmtpMailer {
  const m = new SmtpMailer({ url, from: FROM, timeoutMs });
  cleanup.push(() => m.close());
  return m;
}

/** A TCP server that accepts and never says a word: the relay that hangs. */
async function silentServer(): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(
    () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  );
  return (server.address() as AddressInfo).port;
}

describe('SmtpMailer', () => {
  it('when a mail is sent, then the relay receives it from MAIL_FROM, authenticated, with the link in the text', async () => {
    const server = await smtp();
    await mailer(server.url).send(verificationMail({ to: 'ada@example.com', name: 'Zoë <b>', link: LINK }));

    expect(server.messages).toHaveLength(1);
    const m = server.messages[0]!;
    expect(m.envelope).toEqual({ from: 'no-reply@agent.test', to: ['ada@example.com'] });
    expect(m.auth).toEqual({ username: server.user, password: server.pass });
    expect(m.headers.get('from')).toBe(FROM);
    expect(m.headers.get('to')).toBe('ada@example.com');
    expect(m.subject).toBe('Verify your e-mail address');
    expect(m.text).toContain('Hello Zoë <b>,');
    expect(m.text.split('\n')).toContain(LINK);
    expect(m.html).toContain('Hello Zoë &#60;b&#62;,');
    expect(m.html).toContain(`href="${LINK.replace(/&/g, '&#38;')}"`);
  });

  it('when a password reset is sent, then its text names the link and the expiry', async () => {
    const server = await smtp();
    await mailer(server.url).send(passwordResetMail({ to: 'bo@example.com', name: 'Bo', link: 'http://app.test/reset-password?token=t1', expiresInMinutes: 60 }));

    const m = await server.waitForMessage((x) => x.envelope.to.includes('bo@example.com'));
    expect(m.subject).toBe('Reset your password');
    expect(m.text).toContain('http://app.test/reset-password?token=t1');
    expect(m.text).toContain('expires in 60 minutes');
  });

  it('when the relay rejects the recipient, then send throws UpstreamUnavailableError', async () => {
    const server = await smtp({ rejectRecipient: (a) => a === 'nobody@example.com' });
    const err = await mailer(server.url)
      .send({ to: 'nobody@example.com', subject: 's', text: 't' })
      .catch((e: unknown) => e);

    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(err).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstream: 'mail relay' });
    expect(server.messages).toHaveLength(0);
  });

  it('when the relay rejects the credentials, then send throws UpstreamUnavailableError', async () => {
    const server = await smtp();
    const url = server.url.replace(encodeURIComponent(server.pass), 'wrong');
    await expect(mailer(url).send({ to: 'ada@example.com', subject: 's', text: 't' })).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('when the relay accepts the connection but never answers, then send fails within the timeout', async () => {
    const port = await silentServer();
    const started = Date.now();
    const err = await mailer(`smtp://127.0.0.1:${port}`, 300)
      .send({ to: 'ada@example.com', subject: 's', text: 't' })
      .catch((e: unknown) => e);

    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('when nothing listens at SMTP_URL, then send throws UpstreamUnavailableError', async () => {
    const port = await silentServer(); // a port we own…
    await cleanup.pop()!(); // …closed again, so nothing listens there
    await expect(mailer(`smtp://127.0.0.1:${port}`).send({ to: 'a@b.c', subject: 's', text: 't' })).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});
