import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { DependencyContainer } from 'tsyringe';
import { buildServer, type ServerOptions } from '../adapters/inbound/http/build-server.js';
import { SessionCookies } from '../adapters/inbound/http/plugins/cookies.js';
import { CsrfTokens } from '../adapters/inbound/http/plugins/csrf.js';
import { RequestTimingFlusher } from '../adapters/inbound/http/plugins/request-timing-flusher.js';
import { RouteTimings } from '../adapters/inbound/http/plugins/route-timings.js';
import { RecordRequestTimings } from '../application/metrics/record-request-timings.use-case.js';
import { PgRevocationBus } from '../adapters/outbound/persistence/pg-revocation-bus.js';
import { Authenticator } from '../application/auth/authenticator.js';
import { CredentialRevocations } from '../application/auth/credential-revocations.js';
import type { Config } from './config.js';
import { drainBeforeClose } from './http-drain.js';
import { webConsoleRoot } from './web-console-root.js';
import { AgentMailboxDispatcher } from '../adapters/inbound/jobs/agent-mailbox-dispatcher.js';
import { SendAgentMessage } from '../application/agents/send-agent-message.use-case.js';

/**
 * The HTTP side of a process, wired from the container. The routes are built at once; the
 * database is first used (the revocations' LISTEN, the timings' flushes) once `databaseReady`
 * resolves, so main.ts may build them while the migrations run.
 */
export async function createHttpServer(
  config: Config,
  container: DependencyContainer,
  logger: Logger,
  extraRoutes: ServerOptions['extraRoutes'] = [],
  databaseReady: Promise<void> = Promise.resolve(),
): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  // ioredis is loaded only when configured: it is a noticeable part of the start otherwise.
  const redis = config.REDIS_URL
    ? new (await import('ioredis')).Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false })
    : undefined;
  redis?.on('error', (err) => logger.warn({ err }, 'redis unavailable; rate limits fail open'));
  const app = await buildServer({
    logger,
    timings: container.resolve(RouteTimings),
    redis,
    container,
    cookies: new SessionCookies(config.secureCookies),
    csrf: new CsrfTokens(config.COOKIE_SECRET),
    authenticator: container.resolve(Authenticator),
    authRateLimit: config.RATE_LIMIT_AUTH,
    extraRoutes,
    webConsole: { root: webConsoleRoot(), onMissing: (root) => logger.warn({ root }, 'the web console is not built; / answers 503 until `npm run build`') },
  });
  await databaseReady.catch(async (err: unknown) => {
    redis?.disconnect();
    await app.close().catch(() => {});
    throw err;
  });
  // Credentials revoked by other processes leave this one's caches at once (before it listens).
  const revocations = container.resolve(CredentialRevocations);
  const bus = container.resolve(PgRevocationBus);
  await bus.listen((r) => revocations.apply(r));
  // per-minute request timings reach the database in batches, never one write per request
  const flusher = new RequestTimingFlusher(container.resolve(RouteTimings), container.resolve(RecordRequestTimings), (err) =>
    logger.warn({ err }, 'request timings flush failed; kept for the next one'),
  );
  flusher.start(config.METRICS_FLUSH_MS);
  const drain = drainBeforeClose(app);
  return {
    app,
    async close() {
      // Requests waiting for an agent's answer answer 202 now (the message stays queued). Where
      // this process also answers (SERVICE_ROLE all), the answers in progress need this very
      // server for the runtime's calls: they are handed back to the mailbox before it closes.
      container.resolve(SendAgentMessage).stopWaiting();
      if (container.isRegistered(AgentMailboxDispatcher)) await container.resolve(AgentMailboxDispatcher).stop();
      await drain.drain();
      await drain.close();
      await flusher.stop();
      await bus.stop();
      redis?.disconnect();
    },
  };
}
