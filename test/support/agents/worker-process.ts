import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanUpLater } from '../cleanup.js';
import { spawnService } from '../service-process.js';
import { sleep } from '../polling.js';

/**
 * A real worker process (SERVICE_ROLE=worker, `src/bootstrap/main.ts`) on an existing database,
 * with short leases so takeovers happen in seconds. Killed (SIGKILL) at the end of the test if still alive.
 */
export async function spawnWorker(databaseUrl: string, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-host-worker-'));
  const service = await spawnService({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    SERVICE_ROLE: 'worker',
    RUNTIME_RUN_AS_USER: '',
    // the in-process api's key (test-app.ts): both open the same sealed gateway tokens
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    INSTANCE_LEASE_MS: '3000',
    INSTANCE_HEARTBEAT_MS: '500',
    ...env,
  });
  let exited = false;
  void service.exited.then(() => (exited = true));
  cleanUpLater(async () => {
    if (!exited) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });
  // a worker compiles and starts the whole service: alone ~5 s, past 30 s on a loaded 2-core machine
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !service.output.includes('"msg":"service started"')) {
    if (exited) throw new Error(`worker exited during start:\n${service.output.slice(-3000)}`);
    await sleep(100);
  }
  if (!service.output.includes('"msg":"service started"')) throw new Error(`worker did not start:\n${service.output.slice(-3000)}`);
  return { ...service, pid: service.child.pid!, get output() { return service.output; } };
}
