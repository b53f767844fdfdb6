import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { RuntimeUnavailableError } from '../../../src/application/agents/runtime.errors.js';
import type { RuntimeExit, RuntimeSpec } from '../../../src/application/ports/agent-runtime.port.js';
import { DockerAgentRuntime, type DockerRuntimeOptions } from '../../../src/adapters/outbound/agent-runtimes/docker/docker-agent-runtime.js';
import { loadConfig } from '../../../src/bootstrap/config.js';
import { createAgentRuntime } from '../../../src/bootstrap/create-agent-runtime.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { startDockerStandIn } from '../../support/agent-runtimes/docker-engine-stand-in.js';

const GB = 1024 ** 3;
const IMAGE = 'agent-host-runtime:test';
const runtimes: DockerAgentRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.close()));
});

async function setUp(options: Partial<DockerRuntimeOptions> = {}) {
  const engine = await startDockerStandIn();
  const r = new DockerAgentRuntime({ endpoint: { kind: 'unix', socketPath: engine.socketPath }, image: IMAGE, pollIntervalMs: 50, callTimeoutMs: 1_000, startTimeoutMs: 2_000, stopTimeoutMs: 1_000, ...options });
  runtimes.push(r);
  const exits: { userId: UserId; exit: RuntimeExit }[] = [];
  r.onExit((userId, exit) => exits.push({ userId, exit }));
  return { engine, r, exits };
}

const specFor = (over: Partial<RuntimeSpec> = {}): RuntimeSpec => ({
  userId: randomUUID() as UserId,
  runtimeVersion: 'agent-host-1',
  ramCapBytes: 2 * GB,
  gatewayToken: `gw_${randomUUID()}`,
  serviceUrl: 'http://host.docker.internal:3000',
  ...over,
});

/**
 * What a real Docker Engine cannot be made to do on demand, against the stand-in daemon
 * (test/support/agent-runtimes/docker-engine-stand-in.ts): answer 500 to one call, never answer, and run
 * an image whose program never speaks the protocol. Everything else (the container's limits, chat
 * over attach, stats, a kill from outside, the OOM kill, a leftover container, a cut attach
 * stream, an absent daemon, TLS) is tested on the real engine: docker-agent-runtime.test.ts.
 */
describe('DockerAgentRuntime against a stand-in Engine API: what a real daemon does not do on demand', () => {
  it('when the daemon fails, hangs or is absent, then the call rejects with RuntimeUnavailableError within its timeout, and nothing is left running', async () => {
    const { engine, r } = await setUp({ startTimeoutMs: 500, callTimeoutMs: 300 });
    engine.failOn(/\/containers\/create/);
    await expect(r.start(specFor())).rejects.toBeInstanceOf(RuntimeUnavailableError);

    engine.reset();
    engine.failOn(/\/start$/);
    const failedStart = specFor();
    await expect(r.start(failedStart)).rejects.toBeInstanceOf(RuntimeUnavailableError);
    expect(r.isRunning(failedStart.userId)).toBe(false);
    expect(engine.containers.size).toBe(0); // the created container was removed

    engine.reset();
    engine.hangOn(/\/containers\/create/);
    const t0 = Date.now();
    await expect(r.start(specFor())).rejects.toBeInstanceOf(RuntimeUnavailableError);
    expect(Date.now() - t0).toBeLessThan(1_500);

    engine.reset();
    // the program itself may take seconds to start on a loaded machine: only the daemon's calls are short here
    const patient = new DockerAgentRuntime({ endpoint: { kind: 'unix', socketPath: engine.socketPath }, image: IMAGE, pollIntervalMs: 50, callTimeoutMs: 300, startTimeoutMs: 10_000 });
    runtimes.push(patient);
    const spec = specFor();
    await patient.start(spec);
    engine.hangOn(/\/stats/);
    await expect(patient.stats(spec.userId)).rejects.toBeInstanceOf(RuntimeUnavailableError);
    // a failing list is no crash: the instance stays up
    engine.reset();
    const lists = () => engine.requests.filter((q) => /\/containers\/json\?/.test(q.url)).length;
    const listsBefore = lists();
    engine.failOn(/\/containers\/json\?/);
    // the runtime never overlaps its polls: a second failed list means the first failure was handled
    await expect.poll(lists, { timeout: 5_000, interval: 20 }).toBeGreaterThanOrEqual(listsBefore + 2);
    expect(patient.isRunning(spec.userId)).toBe(true);
    engine.reset();

    const absent = new DockerAgentRuntime({ endpoint: { kind: 'unix', socketPath: `${engine.socketPath}.missing` }, image: IMAGE, callTimeoutMs: 300 });
    await expect(absent.start(specFor())).rejects.toBeInstanceOf(RuntimeUnavailableError);
  });

  it('when the program does not answer after start, then the start fails and nothing is left running', async () => {
    const { spawn } = await import('node:child_process');
    // an image whose program never speaks the protocol
    const engine = await startDockerStandIn({ run: () => spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['pipe', 'pipe', 'pipe'] }) });
    const r = new DockerAgentRuntime({ endpoint: { kind: 'unix', socketPath: engine.socketPath }, image: IMAGE, pollIntervalMs: 50, callTimeoutMs: 1_000, startTimeoutMs: 1_500, stopTimeoutMs: 1_000 });
    runtimes.push(r);
    await expect(r.start(specFor())).rejects.toBeInstanceOf(RuntimeUnavailableError);
    expect(engine.containers.size).toBe(0);
  });

  it('when AGENT_RUNTIME=docker, then createAgentRuntime builds the docker adapter on DOCKER_HOST', async () => {
    const { engine } = await setUp();
    const config = loadConfig({
      NODE_ENV: 'test',
      JWT_SECRET: 'x'.repeat(40),
      COOKIE_SECRET: 'y'.repeat(40),
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      AGENT_RUNTIME: 'docker',
      DOCKER_HOST: `unix://${engine.socketPath}`,
      RUNTIME_DOCKER_IMAGE: IMAGE,
    });
    const r = createAgentRuntime(config, pino({ level: 'silent' }));
    expect(r.kind).toBe('docker');
    const spec = specFor();
    await r.start(spec);
    expect(engine.requests.find((q) => q.url.includes('/containers/create'))!.body.Image).toBe(IMAGE);
    await r.close();
    expect(engine.containers.size).toBe(0);
  });
});
