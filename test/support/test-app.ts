import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { DependencyContainer } from 'tsyringe';
import { cleanUpLater } from './cleanup.js';
import { checkResponsesAgainstDocument } from './documented-responses.js';
import type { ServerOptions } from '../../src/adapters/inbound/http/build-server.js';
import { loadConfig, type Config } from '../../src/bootstrap/config.js';
import { buildContainer } from '../../src/bootstrap/container.js';
import { createHttpServer } from '../../src/bootstrap/http.js';
import { openInfrastructure, type Infrastructure } from '../../src/bootstrap/infrastructure.js';
import { createLogger } from '../../src/bootstrap/logger.js';
import { closeAgentRuntime } from '../../src/bootstrap/register-agents.js';
import { createTestDatabase } from './test-database.js';

export interface TestApp {
  app: FastifyInstance;
  container: DependencyContainer;
  infra: Infrastructure;
  config: Config;
  /** Every log line the app wrote, raw JSON text. */
  logs: string[];
  databaseUrl: string;
}

/**
 * The whole service in-process on a fresh database: real adapters, real PostgreSQL, driven with
 * `app.inject`. `env` overrides configuration; `override` swaps registrations before the server
 * is built (a port fake, a vendor's local stand-in). Every answer `app.inject` gets is held to the
 * service's OpenAPI document (documented-responses.ts): a route cannot drift from its reference.
 */
export async function startTestApp(
  opts: {
    env?: Record<string, string>;
    override?: (c: DependencyContainer) => void;
    routes?: ServerOptions['extraRoutes'];
    /** A database prepared elsewhere (e.g. on a server the test stops and restarts). */
    databaseUrl?: string;
  } = {},
): Promise<TestApp> {
  const db = opts.databaseUrl ? { url: opts.databaseUrl } : await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-host-app-'));
  cleanUpLater(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-jwt-secret-that-is-long-enough-for-hs256',
    COOKIE_SECRET: 'test-cookie-secret-that-is-long-enough-000',
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    BCRYPT_ROUNDS: '4',
    LOG_LEVEL: 'info',
    APP_URL: 'http://127.0.0.1:3000',
    RATE_LIMIT_AUTH: '1000',
    ...opts.env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const logger = createLogger(config, sink);
  const infra = await openInfrastructure(config, logger);
  const container = await buildContainer(config, logger, infra);
  opts.override?.(container);
  const http = await createHttpServer(config, container, logger, opts.routes);
  await http.app.ready();
  checkResponsesAgainstDocument(http.app);
  cleanUpLater(async () => {
    await http.close();
    await infra.close();
    await closeAgentRuntime(container);
  });
  return { app: http.app, container, infra, config, logs, databaseUrl: db.url };
}
