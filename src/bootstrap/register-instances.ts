import type { DependencyContainer } from 'tsyringe';
import { startInstanceSupervisor } from '../adapters/inbound/agent-supervision/instance-supervisor.js';
import { PgInstanceCommands } from '../adapters/outbound/persistence/pg-instance-commands.js';
import { PgInstanceLeases } from '../adapters/outbound/persistence/pg-instance-leases.js';
import { ApplyInstanceCommand } from '../application/instances/apply-instance-command.use-case.js';
import { GetAgentStats } from '../application/instances/get-agent-stats.use-case.js';
import { GetInstanceStats } from '../application/instances/get-instance-stats.use-case.js';
import { GetInstanceToken } from '../application/instances/get-instance-token.use-case.js';
import { GetInstance } from '../application/instances/get-instance.use-case.js';
import { HandleRuntimeExit } from '../application/instances/handle-runtime-exit.use-case.js';
import { InstanceRuntimeStarter } from '../application/instances/instance-runtime-starter.js';
import { INSTANCE_SETTINGS } from '../application/ports/instance-settings.port.js';
import { LocalInstances } from '../application/instances/local-instances.js';
import { ReconcileInstances } from '../application/instances/reconcile-instances.use-case.js';
import { RunInstanceCommand } from '../application/instances/run-instance-command.use-case.js';
import { AGENT_RUNTIME } from '../application/ports/agent-runtime.port.js';
import { INSTANCE_COMMANDS } from '../application/ports/instance-commands.port.js';
import { INSTANCE_LEASES } from '../application/ports/instance-leases.port.js';
import { LOGGER } from '../application/ports/logger.port.js';
import { WORKER_IDENTITY } from '../application/ports/worker-identity.port.js';
import type { Config } from './config.js';
import type { Infrastructure } from './infrastructure.js';

/** Agents' stats never wait longer than this for a worker before the spec's mock variant is shown. */
const STATS_TIMEOUT_MS = 5_000;

/**
 * Runtime ownership and the instance endpoints (CONTRACT.md section 7). Every role sends
 * commands through the database; worker roles also hold leases (under WORKER_IDENTITY, which
 * registerAgents registers) and run commands. Needs registerAgents first.
 */
export function registerInstances(c: DependencyContainer, config: Config, infra: Pick<Infrastructure, 'pools'>): void {
  c.register(INSTANCE_SETTINGS, {
    useValue: {
      leaseMs: config.INSTANCE_LEASE_MS,
      heartbeatMs: config.INSTANCE_HEARTBEAT_MS,
      commandTimeoutMs: config.INSTANCE_COMMAND_TIMEOUT_MS,
      statsTimeoutMs: Math.min(STATS_TIMEOUT_MS, config.INSTANCE_COMMAND_TIMEOUT_MS),
      rateLimitPerMinute: config.RATE_LIMIT_INSTANCE,
    },
  });
  c.register(INSTANCE_COMMANDS, { useValue: new PgInstanceCommands(infra.pools.system) });
  for (const useCase of [RunInstanceCommand, GetInstance, GetInstanceStats, GetInstanceToken, GetAgentStats]) c.registerSingleton(useCase as never);
  if (config.SERVICE_ROLE === 'api') return;
  c.register(INSTANCE_LEASES, { useValue: new PgInstanceLeases(infra.pools.system, c.resolve(WORKER_IDENTITY).workerId, config.INSTANCE_LEASE_MS) });
  for (const cls of [LocalInstances, InstanceRuntimeStarter, ApplyInstanceCommand, HandleRuntimeExit, ReconcileInstances]) c.registerSingleton(cls as never);
}

/**
 * Starts the worker's side: reconciles at once, then heartbeats, runs commands and handles
 * runtime exits. The returned step stops it, stops this worker's runtimes, and gives their
 * leases back so another worker takes them over at once (before the pools close).
 */
export function startInstanceWork(c: DependencyContainer): () => Promise<void> {
  const settings = c.resolve(INSTANCE_SETTINGS);
  const runtime = c.resolve(AGENT_RUNTIME);
  const leases = c.resolve(INSTANCE_LEASES);
  const supervisor = startInstanceSupervisor({
    runtime,
    leases,
    commands: c.resolve(INSTANCE_COMMANDS),
    reconcile: c.resolve(ReconcileInstances),
    apply: c.resolve(ApplyInstanceCommand),
    exits: c.resolve(HandleRuntimeExit),
    log: c.resolve(LOGGER),
    heartbeatMs: settings.heartbeatMs,
    leaseMs: settings.leaseMs,
  });
  return async () => {
    await supervisor.stop();
    await runtime.close();
    await leases.releaseAll();
  };
}
