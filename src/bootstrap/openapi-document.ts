import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { buildServer } from '../adapters/inbound/http/build-server.js';
import { SessionCookies } from '../adapters/inbound/http/plugins/cookies.js';
import { CsrfTokens } from '../adapters/inbound/http/plugins/csrf.js';
import { RouteTimings } from '../adapters/inbound/http/plugins/route-timings.js';
import { createPgPools } from '../adapters/outbound/persistence/pg-pools.js';
import { PgMailboxSignals } from '../adapters/outbound/persistence/pg-mailbox-signals.js';
import { PgRevocationBus } from '../adapters/outbound/persistence/pg-revocation-bus.js';
import { PgBossQueue } from '../adapters/outbound/queue/pg-boss-queue.js';
import { Authenticator } from '../application/auth/authenticator.js';
import { loadConfig } from './config.js';
import { buildContainer } from './container.js';
import type { Infrastructure } from './infrastructure.js';

/** Never connected to: nothing here sends a query. */
const NOWHERE = 'postgres://document-only@127.0.0.1:1/none';

/**
 * The OpenAPI document the service serves at /api/openapi.json, made without a database or a
 * listening port: the container is wired as at start over connections that are never opened, the
 * routes are registered (all the document reads) and never called. `npm run lint:openapi` lints
 * what this writes; test/http/openapi.test.ts holds it equal to the document the service serves.
 */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: NOWHERE,
    JWT_SECRET: 'document-only-secret-never-used-for-any-token',
    COOKIE_SECRET: 'document-only-secret-never-used-for-a-cookie',
    ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
    APP_URL: 'http://127.0.0.1:3000',
  });
  const logger = pino({ level: 'silent' });
  const pools = createPgPools({ databaseUrl: NOWHERE, size: 1, onError: () => {} });
  const system = { connectionString: NOWHERE };
  const infra: Infrastructure = {
    databaseUrl: NOWHERE,
    pools,
    queue: new PgBossQueue({ connectionString: NOWHERE, supervise: false, log: logger }),
    revocations: new PgRevocationBus(pools.system, system, logger),
    mailboxSignals: new PgMailboxSignals(pools.system, system, logger),
    afterQueueStops: [],
    migrated: Promise.resolve(),
    close: () => pools.end(),
  };
  const container = await buildContainer(config, logger, infra);
  const app = await buildServer({
    logger,
    timings: container.resolve(RouteTimings),
    container,
    cookies: new SessionCookies(config.secureCookies),
    csrf: new CsrfTokens(config.COOKIE_SECRET),
    authenticator: container.resolve(Authenticator),
    authRateLimit: config.RATE_LIMIT_AUTH,
  });
  await app.ready();
  const document = app.swagger() as unknown as Record<string, unknown>;
  await app.close();
  await infra.close();
  return document;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const target = process.argv[2];
  if (!target) throw new Error('usage: tsx src/bootstrap/openapi-document.ts <file.json>');
  mkdirSync(dirname(target), { recursive: true }); // dist/ is not in a fresh clone
  writeFileSync(target, `${JSON.stringify(await openApiDocument(), null, 2)}\n`);
}
