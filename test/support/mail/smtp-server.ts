import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseMime } from './mime.js';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** The credentials the client authenticated with; null when it sent none. */
  auth: { username: string; password: string } | null;
  /** Lower-cased names, decoded values. */
  headers: Map<string, string>;
  subject: string;
  text: string;
  html: string | undefined;
  /** The whole message as received, one char per byte. */
  raw: string;
}

export interface SmtpTestServer {
  /** `smtp://user:pass@127.0.0.1:port`, ready for SMTP_URL. */
  url: string;
  port: number;
  user: string;
  pass: string;
  messages: ReceivedMail[];
  /** The first message (already received or still to come) that `match` accepts. */
  waitForMessage(match?: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export interface SmtpTestServerOptions {
  user?: string;
  pass?: string;
  /** Answer 550 to RCPT TO for these addresses. */
  rejectRecipient?: (address: string) => boolean;
}

/**
 * A real SMTP server on 127.0.0.1 and a free port, cleartext (no STARTTLS offered), AUTH
 * PLAIN/LOGIN for one user, that keeps every accepted message in `messages`.
 */
export async function startSmtpServer(options: SmtpTestServerOptions = {}): Promise<SmtpTestServer> {
  const user = options.user ?? 'mailer';
  const pass = options.pass ?? 's3cret-pass';
  const messages: ReceivedMail[] = [];
  const arrivals = new EventEmitter();

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    closeTimeout: 1_000,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === pass) cb(null, { user: { username: auth.username, password: auth.password } });
      else cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, cb) {
      if (options.rejectRecipient?.(address.address)) cb(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      else cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1');
        const mime = parseMime(raw);
        const mailFrom = session.envelope.mailFrom;
        const mail: ReceivedMail = {
          envelope: { from: mailFrom ? mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address) },
          auth: (session.user as ReceivedMail['auth']) ?? null,
          headers: mime.headers,
          subject: mime.headers.get('subject') ?? '',
          text: mime.text ?? '',
          html: mime.html,
          raw,
        };
        messages.push(mail);
        arrivals.emit('mail', mail);
        cb();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    port,
    user,
    pass,
    messages,
    waitForMessage(match = () => true, timeoutMs = 5_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const onMail = (m: ReceivedMail) => {
          if (!match(m)) return;
          clearTimeout(timer);
          arrivals.off('mail', onMail);
          resolve(m);
        };
        const timer = setTimeout(() => {
          arrivals.off('mail', onMail);
          reject(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        arrivals.on('mail', onMail);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
