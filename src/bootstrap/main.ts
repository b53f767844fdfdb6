import 'reflect-metadata';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './database.js';
import { chooseLogFormat, createLogger } from './logger.js';
import { localStartBanner, noAiProviderWarning } from './start-notes.js';
import { StartupPhases } from './startup-phases.js';
import { StopSteps } from './stop-steps.js';

/**
 * Process entry: SERVICE_ROLE=api serves HTTP, worker runs job handlers, all does both.
 * SIGTERM/SIGINT: stop accepting, finish in-flight requests and jobs, close pools, exit 0; a
 * signal during the start takes effect as soon as the start is over (so nothing is left running).
 *
 * Only configuration, logging and the database starter are imported up front: the embedded
 * PostgreSQL (initdb, then the server: separate processes) is launched, then the rest loads while it
 * starts.
 */
async function main(): Promise<void> {
  const phases = new StartupPhases();
  phases.mark('loadMs');
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
  const logger = createLogger(config, undefined, chooseLogFormat({ nodeEnv: config.NODE_ENV, stdoutIsTTY: process.stdout.isTTY === true }));
  phases.logTo(logger);
  if (config.unsafeDefaults && !config.isLocal) {
    logger.warn('ALLOW_UNSAFE_DEFAULTS=true on a service that is not local: generated secrets, the development payment processor (when STRIPE_SECRET_KEY is unset) and mail printed to the log are on');
  }
  const noProvider = noAiProviderWarning(config);
  if (noProvider) logger.warn(noProvider);
  phases.mark('configMs');

  const stops = new StopSteps((step, err) => logger.error({ err, step }, 'stop failed'));
  let starting: Promise<unknown> = Promise.resolve();
  const shutdown = async (signal: string) => {
    if (stops.requested) return;
    stops.request();
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS + 5_000);
    force.unref();
    await starting.catch(() => {});
    await stops.run('close http');
    logger.info('http closed');
    await stops.run();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // Started over an IPC channel (forked by a test or a supervisor): when that parent goes, so do we,
  // the same clean way, rather than live on as an orphan holding its port and database.
  if (process.send) process.once('disconnect', () => void shutdown('parent disconnected'));

  // The embedded PostgreSQL's long step (initdb, or the server's own start) runs in its own process;
  // the rest of the service is loaded once it runs. Loading first would hold up the few file
  // operations before it (this thread compiles the modules), and the two would not overlap.
  let release = () => {};
  const launched = new Promise<void>((resolve) => (release = resolve));
  const database = phases.time('postgresMs', openDatabase(config, logger, { launched: () => release() }));
  database.then(release, release); // a failure surfaces where it is awaited below
  const start = async () => {
    await launched;
    phases.mark('launchMs');
    const [{ openInfrastructure }, { buildContainer }, { createHttpServer }, { startWorker }, { closeAgentRuntime }] = await Promise.all([
      import('./infrastructure.js'),
      import('./container.js'),
      import('./http.js'),
      import('./worker.js'),
      import('./register-agents.js'),
    ]);
    phases.mark('modulesMs');
    // The migrations run while the container and the HTTP routes are built (neither queries the
    // database); the routes' first queries, pg-boss's send grants and the listening wait for them.
    const infra = await openInfrastructure(config, logger, { mark: phases.mark, database, startQueue: false, awaitMigrations: false });
    stops.add('close infrastructure', () => infra.close());
    const migrated = phases.time('migrateMs', infra.migrated);
    migrated.catch(() => {}); // awaited below
    const container = await buildContainer(config, logger, infra);
    phases.mark('containerMs');
    stops.add('close agent runtimes', () => closeAgentRuntime(container));
    // The HTTP server is built while pg-boss starts; nothing sends or works a job before both are done.
    const [http] = await Promise.all([
      config.SERVICE_ROLE !== 'worker' ? phases.time('routesMs', createHttpServer(config, container, logger, [], migrated)) : undefined,
      phases.time('queueMs', migrated.then(() => infra.queue.start(infra.pools.owner))),
    ]);
    phases.mark('queueAndHttpMs');
    if (http) {
      stops.add('close http', () => http.close());
      if (stops.requested) return;
      await http.app.listen({ host: config.HOST, port: config.PORT });
      phases.mark('listenMs');
    }
    if (config.SERVICE_ROLE !== 'api' && !stops.requested) {
      stops.add('stop fetching jobs', () => infra.queue.stopFetching());
      await startWorker(container, infra.queue, infra.afterQueueStops);
      phases.mark('workerMs');
    }
    logger.info({ role: config.SERVICE_ROLE, url: config.APP_URL, startup: phases.summary() }, 'service started');
    // for the person at the terminal: plain text, not a log line
    if (config.isLocal && http && !stops.requested) process.stdout.write(localStartBanner(config));
  };
  starting = start();
  try {
    await starting;
  } catch (err) {
    await stops.run();
    await database.then((d) => d.stop(), () => {}).catch(() => {}); // idempotent; the embedded server never outlives a failed start
    throw err;
  }
}

main().catch((err) => {
  process.stderr.write(`fatal: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
