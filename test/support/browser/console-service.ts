import type { FakeAiServer } from '../ai/fake-ai-server.js';
import { startFakeOpenAiServer } from '../ai/fake-openai-server.js';
import { startSmtpServer, type SmtpTestServer } from '../mail/smtp-server.js';
import { freePort, spawnService } from '../service-process.js';

export const PLATFORM_KEY = 'sk-or-console-platform-key';

export interface ConsoleService {
  /** `http://127.0.0.1:<port>`, also the service's APP_URL. */
  base: string;
  provider: FakeAiServer;
  smtp: SmtpTestServer;
  databaseUrl: string;
  output(): string;
  /** Stops the service, the SMTP server and the provider. */
  stop(): Promise<void>;
}

/**
 * The whole service as `npm start` runs it (api and worker in one process, agents as real child
 * processes, the development payment processor), on a fresh database, with a local fake provider
 * in the OpenAI wire format and a real SMTP server catching the account mail. Call it in a
 * `beforeAll` and `stop()` it in an `afterAll`: a browser test file skipped for want of Chromium
 * still runs its `describe` body, and must start nothing there.
 */
export async function startConsoleService(env: Record<string, string> = {}, opts: { aiProvider?: boolean } = {}): Promise<ConsoleService> {
  const provider = await startFakeOpenAiServer({ apiKey: PLATFORM_KEY });
  const smtp = await startSmtpServer();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const service = await spawnService(
    {
      APP_URL: base,
      LOG_LEVEL: 'warn',
      SMTP_URL: smtp.url,
      // without: a fresh clone's state, no AI provider configured (the fake still runs, unwired)
      ...(opts.aiProvider === false ? {} : { OPENROUTER_API_KEY: PLATFORM_KEY, OPENROUTER_BASE_URL: provider.baseUrl }),
      RUNTIME_RUN_AS_USER: '',
      AGENT_MAILBOX_POLL_MS: '500',
      ...env,
    },
    { port },
  );
  // a test process that dies before stop() never leaves the service running: it stops when its IPC
  // parent goes (src/bootstrap/main.ts)
  const stop = async () => {
    service.child.kill('SIGTERM');
    await service.exited;
    await smtp.close();
    await provider.close();
  };
  // a loaded 2-core machine can take a minute to load the service under tsx (the hook allows 120 s)
  const deadline = Date.now() + 90_000;
  for (;;) {
    // /health, not /api/health: the latter answers 500 on a busy machine (its CPU threshold)
    const up = await fetch(`${base}/health`).then((r) => r.ok, () => false);
    if (up) break;
    if (service.child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the service did not start:\n${service.output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, provider, smtp, databaseUrl: service.databaseUrl, output: () => service.output, stop };
}

/** The link in the newest mail to `to` whose text contains `path` (e.g. `/verify-email?token=`). */
export async function linkInMail(smtp: SmtpTestServer, to: string, path: string): Promise<string> {
  const mail = await smtp.waitForMessage((m) => m.envelope.to.includes(to) && m.text.includes(path), 20_000);
  const link = mail.text.match(new RegExp(`https?://\\S*${path.replace(/[?]/g, '\\?')}\\S*`))?.[0];
  if (!link) throw new Error(`no ${path} link in the mail to ${to}:\n${mail.text}`);
  return link;
}

/**
 * Opens the verification link mailed to `to` through the API (GET /api/auth/verify-email), as the
 * console's /verify-email page does: an ADMIN_EMAILS address grants its rights only once verified.
 */
export async function verifyByMail(service: Pick<ConsoleService, 'base' | 'smtp'>, to: string): Promise<void> {
  const token = new URL(await linkInMail(service.smtp, to, '/verify-email?token=')).searchParams.get('token');
  const res = await fetch(`${service.base}/api/auth/verify-email?token=${encodeURIComponent(token ?? '')}`);
  if (res.status !== 200) throw new Error(`verify-email: ${res.status} ${await res.text()}`);
}
