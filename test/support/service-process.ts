import { fork } from 'node:child_process';
import { freePort } from './free-port.js';
import { createTestDatabase } from './test-database.js';

export { freePort };

/**
 * The real service as its own process (`src/bootstrap/main.ts` under tsx) on a fresh database,
 * for what only a process shows: signals, exit codes, which role listens. A variable set to
 * `undefined` in `env` is left out (e.g. the shared secrets given by default).
 * TEST_SERVICE_ENTRY=dist/service/main.js runs the built bundle instead, under plain node, as
 * `npm start` does (after `npm run build`): the same tests then check what the bundle changes.
 */
const SERVICE_ENTRY = process.env.TEST_SERVICE_ENTRY || 'src/bootstrap/main.ts';

export async function spawnService(env: Record<string, string | undefined> = {}, opts: { databaseUrl?: string; port?: number } = {}) {
  // A database given (e.g. on a server the test stops itself) is used as is; else a fresh one on the shared server.
  const db = opts.databaseUrl ? { url: opts.databaseUrl } : await createTestDatabase();
  const port = opts.port ?? (await freePort());
  const child = fork(SERVICE_ENTRY, [], {
    execArgv: SERVICE_ENTRY.endsWith('.ts') ? ['--import', 'tsx'] : [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env, NODE_ENV: 'test', DATABASE_URL: db.url, PORT: String(port), LOG_LEVEL: 'info',
      JWT_SECRET: 'service-process-secret-service-process-x', COOKIE_SECRET: 'service-process-cookie-secret-service-x',
      ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
      ...env,
    },
  });
  const service = { child, port, base: `http://127.0.0.1:${port}`, output: '' };
  child.stdout!.on('data', (d) => (service.output += d));
  child.stderr!.on('data', (d) => (service.output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { ...service, get output() { return service.output; }, exited, databaseUrl: db.url };
}
