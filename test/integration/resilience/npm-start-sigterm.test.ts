import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIfNeeded } from '../../../scripts/build.mjs';
import { until } from '../../support/polling.js';
import { freePort } from '../../support/service-process.js';

/**
 * `npm start` as a supervisor runs it: nothing configured but a throwaway DATA_DIR and a port, so
 * the service starts its own embedded PostgreSQL. SIGTERM goes to the npm process only.
 */
const SHUTDOWN_TIMEOUT_MS = 10_000;
const dataDir = mkdtempSync(join(tmpdir(), 'agent-host-npm-start-'));
chmodSync(dataDir, 0o755); // as root the embedded server runs as `postgres`, which must reach DATA_DIR/postgres
const pidsToReap: number[] = [];
afterAll(() => {
  for (const pid of pidsToReap) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** A pid that exists and is not a zombie waiting for a parent to reap it. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

const descendantsOf = (pid: number): number[] => childrenOf(pid).flatMap((c) => [c, ...descendantsOf(c)]);

describe('npm start under a supervisor', () => {
  // The build a first `npm start` runs (tsc and esbuild: a minute, several on a loaded machine) is done
  // here, so the start's own wait below is the service's start, not the compiler's.
  beforeAll(() => buildIfNeeded(), 600_000);

  it('when the npm process gets SIGTERM, then the service and its embedded PostgreSQL stop within SHUTDOWN_TIMEOUT_MS', async () => {
    const port = await freePort();
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? tmpdir(),
      DATA_DIR: dataDir,
      PORT: String(port),
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      LOG_LEVEL: 'info',
    };
    const npm: ChildProcess = spawn('npm', ['start'], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    npm.stdout!.on('data', (d) => (output += d));
    npm.stderr!.on('data', (d) => (output += d));
    const npmExit = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    pidsToReap.push(npm.pid!);
    try {
      // the first start initialises a cluster (or copies one: decision 0370)
      await until('GET /health', 120_000, async () => {
        if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}`);
        return fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
      }, 100);
      const postmasterPid = Number(readFileSync(join(dataDir, 'postgres', 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[0]);
      const servicePids = childrenOf(npm.pid!);
      pidsToReap.push(postmasterPid, ...descendantsOf(npm.pid!));
      expect(alive(postmasterPid)).toBe(true);
      expect(servicePids).toHaveLength(1); // node itself: no shell left in between

      const signalled = Date.now();
      npm.kill('SIGTERM');
      await until('the service and PostgreSQL to stop', SHUTDOWN_TIMEOUT_MS, () => pidsToReap.every((p) => !alive(p)), 100);
      expect(await npmExit).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
      expect(existsSync(join(dataDir, 'postgres', 'pgdata', 'postmaster.pid'))).toBe(false);
      expect(output).toContain('"msg":"stopped"');
    } catch (err) {
      console.log(output.slice(-4000));
      throw err;
    }
  }, 180_000);
});
