import 'reflect-metadata';
import { ConfigError, loadConfig, type Config } from './config.js';
import { buildContainer } from './container.js';
import { createHttpServer } from './http.js';
import { openInfrastructure } from './infrastructure.js';
import { createLogger } from './logger.js';
import { closeAgentRuntime } from './register-agents.js';
import { startWorker } from './worker.js';

/**
 * Process entry: SERVICE_ROLE=api serves HTTP, worker runs job handlers, all does both.
 * SIGTERM/SIGINT: stop accepting, finish in-flight requests and jobs, close pools, exit 0.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config);
  const infra = await openInfrastructure(config, logger);
  const container = buildContainer(config, logger, infra);
  const stops: (() => Promise<void>)[] = [];

  if (config.SERVICE_ROLE !== 'worker') {
    const http = await createHttpServer(config, container, logger);
    await http.app.listen({ host: config.HOST, port: config.PORT });
    stops.push(() => http.close());
  }
  if (config.SERVICE_ROLE !== 'api') await startWorker(container, infra.queue);
  logger.info({ role: config.SERVICE_ROLE, url: config.APP_URL }, 'service started');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS + 5_000);
    force.unref();
    for (const stop of stops) await stop().catch((err) => logger.error({ err }, 'stop failed'));
    logger.info('http closed');
    await infra.close();
    // the queue has drained its in-flight jobs: now the agent runtimes this worker owns can go
    await closeAgentRuntime(container).catch((err) => logger.error({ err }, 'agent runtime close failed'));
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`fatal: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
