import { execFileSync } from 'node:child_process';
import { inject } from 'vitest';
import type { DockerEngineInfo } from './private-docker-daemon.js';

export type DockerTestEngine = Exclude<DockerEngineInfo, { skip: string }> & {
  /** The docker CLI against this engine (output trimmed); throws on failure. */
  docker: (...args: string[]) => string;
};

/**
 * The run's Docker Engine for a docker test file (started by the main process on the first ask:
 * docker-engine-provider.ts), or the reason there is none. Call it at module level and, when it
 * answers `skip`, start nothing else: `describe.skipIf` still runs its callback.
 */
export async function dockerEngine(): Promise<DockerTestEngine | { skip: string }> {
  const res = await fetch(inject('dockerEngineUrl'));
  const info = (await res.json()) as DockerEngineInfo;
  if ('skip' in info) return info;
  const env = { ...process.env, DOCKER_HOST: info.host };
  return { ...info, docker: (...args) => execFileSync('docker', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim() };
}
