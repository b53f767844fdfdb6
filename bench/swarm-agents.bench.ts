import { randomUUID } from 'node:crypto';
import type { RuntimeSpec } from '../src/application/ports/agent-runtime.port.js';
import type { UserId } from '../src/domain/shared/ids.js';
import { DockerAgentRuntime } from '../src/adapters/outbound/agent-runtimes/docker/docker-agent-runtime.js';
import { dockerEndpoint } from '../src/adapters/outbound/agent-runtimes/docker/docker-endpoint.js';
import { SwarmAgentRuntime } from '../src/adapters/outbound/agent-runtimes/swarm/swarm-agent-runtime.js';
import { startStandInService } from '../test/support/agent-runtimes/stand-in-service.js';
import { startTwoNodeSwarm, swarmSkipReason } from '../test/support/agent-runtimes/two-node-swarm.js';
import { median } from './support.js';

const TOKEN = `gw_${'b'.repeat(40)}`;
const MB = 2 ** 20;
const delivery = () => ({ agentId: randomUUID(), model: 'm', content: 'hi', config: {}, memory: {}, history: [] });

/**
 * Agents on a real two-node Docker Swarm this round builds (as the tests do: two private dockerds,
 * the second in its own network namespace), at the runtime's port, the service a stand-in that
 * answers at once (so the figures are the runtime's own):
 *
 * 1. `instances` instances started at once with SwarmAgentRuntime (one service each, 64 MiB), the
 *    time until every one's program has dialled in and answered; where Swarm put them.
 * 2. A message (`deliver`, concurrency 1) on a swarm instance and on a docker-runtime container on
 *    node 1's engine, in turn message by message in each round: the swarm's added p50 over the
 *    docker runtime's (the connection it dialled against the attach stream; both relay the
 *    program's service call through the worker).
 */
export async function benchSwarmAgents(opts: { rounds: number; seconds: number; instances?: number }) {
  const instances = opts.instances ?? 50;
  const skip = swarmSkipReason();
  if (skip) {
    console.log(`\nAgents on a swarm: skipped (${skip})`);
    return null;
  }
  const built = Date.now();
  const swarm = await startTwoNodeSwarm((m) => console.log(`  swarm: ${m}`));
  const service = await startStandInService(TOKEN);
  const swarmRuntime = new SwarmAgentRuntime({
    endpoint: dockerEndpoint({ host: swarm.manager.host, tlsVerify: false, certPath: '' }),
    image: swarm.image,
    listen: { host: swarm.hostAddress, port: 0 },
    network: 'host',
    cpus: 0.5,
    cpuReservation: 0.01,
    stopTimeoutMs: 2_000,
    startTimeoutMs: 120_000,
  });
  const dockerRuntime = new DockerAgentRuntime({ endpoint: dockerEndpoint({ host: swarm.manager.host, tlsVerify: false, certPath: '' }), image: swarm.image, stopTimeoutMs: 2_000 });
  const spec = (): RuntimeSpec => ({ userId: randomUUID() as UserId, runtimeVersion: 'agent-host-1', ramCapBytes: 64 * MB, gatewayToken: TOKEN, serviceUrl: service.url });
  try {
    console.log(`\nAgents on a swarm (two real nodes, built in ${((Date.now() - built) / 1000).toFixed(1)} s, image ${swarm.image})`);
    // ---- 1. many instances at once ----
    const specs = Array.from({ length: instances }, spec);
    const started = Date.now();
    const results = await Promise.allSettled(specs.map((s) => swarmRuntime.start(s)));
    const allMs = Date.now() - started;
    const failed = results.filter((r) => r.status === 'rejected').length;
    const onWorker = swarm.worker.docker('ps', '-q', '--filter', 'label=agent-host.user').split('\n').filter(Boolean).length;
    console.log(`  ${instances} instances started at once: all running in ${(allMs / 1000).toFixed(1)} s${failed ? ` (${failed} failed)` : ''}; ${instances - onWorker} on node 1, ${onWorker} on node 2`);

    // ---- 2. a message: swarm vs docker ----
    const docker = spec();
    await dockerRuntime.start(docker);
    const swarmUser = specs[0]!.userId;
    for (let i = 0; i < 20; i++) {
      await swarmRuntime.deliver(swarmUser, delivery());
      await dockerRuntime.deliver(docker.userId, delivery());
    }
    const p50s = { swarm: [] as number[], docker: [] as number[] };
    for (let round = 0; round < opts.rounds; round++) {
      const times = { swarm: [] as number[], docker: [] as number[] };
      const until = Date.now() + opts.seconds * 1000;
      while (Date.now() < until) {
        let t = performance.now();
        await swarmRuntime.deliver(swarmUser, delivery());
        times.swarm.push(performance.now() - t);
        t = performance.now();
        await dockerRuntime.deliver(docker.userId, delivery());
        times.docker.push(performance.now() - t);
      }
      p50s.swarm.push(median(times.swarm));
      p50s.docker.push(median(times.docker));
    }
    const sw = median(p50s.swarm);
    const dk = median(p50s.docker);
    console.log(`  a message (deliver, concurrency 1, ${opts.rounds} rounds of ${opts.seconds} s): p50 swarm ${sw.toFixed(2)} ms, docker ${dk.toFixed(2)} ms: the swarm adds ${(sw - dk).toFixed(2)} ms`);
    return { instances, allMs, failed, p50Swarm: sw, p50Docker: dk };
  } finally {
    await dockerRuntime.close().catch(() => undefined);
    await swarmRuntime.close().catch(() => undefined);
    await service.close();
    await swarm.stop();
  }
}
