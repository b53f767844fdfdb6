import type { Logger } from 'pino';
import { PROTOCOL_VERSION } from '../agent-host/agent-host-protocol.js';
import { osUser } from '../adapters/outbound/agent-runtimes/process/os-user.js';
import { ProcessAgentRuntime } from '../adapters/outbound/agent-runtimes/process/process-agent-runtime.js';
import { DockerAgentRuntime } from '../adapters/outbound/agent-runtimes/docker/docker-agent-runtime.js';
import { dockerEndpoint } from '../adapters/outbound/agent-runtimes/docker/docker-endpoint.js';
import { SwarmAgentRuntime } from '../adapters/outbound/agent-runtimes/swarm/swarm-agent-runtime.js';
import type { AgentRuntime } from '../application/ports/agent-runtime.port.js';
import type { HostCalls } from '../application/ports/host-calls.port.js';
import type { Config } from './config.js';
import { configuredAiProviders } from './start-notes.js';

type RuntimeConfig = Pick<
  Config,
  | 'AGENT_RUNTIME'
  | 'DOCKER_HOST'
  | 'DOCKER_TLS_VERIFY'
  | 'DOCKER_CERT_PATH'
  | 'AGENT_DOCKER_NETWORK'
  | 'AGENT_DOCKER_CPUS'
  | 'AGENT_SWARM_CONNECT_LISTEN'
  | 'AGENT_SWARM_CONNECT_URL'
  | 'AGENT_SWARM_NETWORK'
  | 'AGENT_SWARM_CONSTRAINTS'
  | 'AGENT_SWARM_CPU_RESERVATION'
  | 'RUNTIME_TEST_HOOKS'
  | 'RUNTIME_SERVICE_CALLS'
  | 'SERVICE_ROLE'
  | 'OPENROUTER_API_KEY'
  | 'OPENAI_API_KEY'
  | 'ANTHROPIC_API_KEY'
  | 'GOOGLE_API_KEY'
  | 'OLLAMA_BASE_URL'
  | 'RUNTIME_DOCKER_IMAGE' | 'RUNTIME_START_TIMEOUT_MS' | 'RUNTIME_STOP_TIMEOUT_MS' | 'RUNTIME_REQUEST_TIMEOUT_MS' | 'RUNTIME_WATCHDOG_INTERVAL_MS' | 'RUNTIME_RUN_AS_USER' | 'RUNTIME_UID_RANGE'
>;

/** The agent-host version new instances record (`runtimeVersion`): the process program at its IPC protocol's version. */
export const RUNTIME_VERSION = `agent-host-${PROTOCOL_VERSION}`;

/**
 * The AgentRuntime a worker owns (CONTRACT.md section 7: only workers hold runtimes), as
 * AGENT_RUNTIME alone chooses: `docker` is one container per instance at DOCKER_HOST, `swarm` one
 * Swarm service per instance through the manager at DOCKER_HOST, its program dialling in. When this
 * process is root each program runs under its own uid from RUNTIME_UID_RANGE, or (range `off`) as
 * RUNTIME_RUN_AS_USER, which must exist (boot fails naming it). `serviceCalls`: the service's
 * door in this process, used by the process runtime unless RUNTIME_SERVICE_CALLS=http.
 */
export function createAgentRuntime(config: RuntimeConfig, logger: Logger, serviceCalls: (() => HostCalls) | null = null): AgentRuntime {
  if (config.AGENT_RUNTIME === 'swarm') {
    const log = logger.child({ component: 'agent-runtime', runtime: 'swarm' });
    const at = config.AGENT_SWARM_CONNECT_LISTEN.lastIndexOf(':');
    return new SwarmAgentRuntime({
      endpoint: dockerEndpoint({ host: config.DOCKER_HOST, tlsVerify: config.DOCKER_TLS_VERIFY, certPath: config.DOCKER_CERT_PATH }),
      image: config.RUNTIME_DOCKER_IMAGE,
      listen: { host: config.AGENT_SWARM_CONNECT_LISTEN.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(config.AGENT_SWARM_CONNECT_LISTEN.slice(at + 1)) },
      connectUrl: config.AGENT_SWARM_CONNECT_URL ?? null,
      network: config.AGENT_SWARM_NETWORK ?? null,
      constraints: config.AGENT_SWARM_CONSTRAINTS,
      cpus: config.AGENT_DOCKER_CPUS,
      cpuReservation: config.AGENT_SWARM_CPU_RESERVATION,
      // the programs' calls, relayed on their connections: answered here when this process answers as the api would
      serviceCalls: answersRuntimeCallsHere(config) ? serviceCalls : null,
      testHooks: config.RUNTIME_TEST_HOOKS === '1',
      startTimeoutMs: Math.max(config.RUNTIME_START_TIMEOUT_MS, 30_000),
      stopTimeoutMs: config.RUNTIME_STOP_TIMEOUT_MS,
      requestTimeoutMs: config.RUNTIME_REQUEST_TIMEOUT_MS,
      pollIntervalMs: config.RUNTIME_WATCHDOG_INTERVAL_MS,
      log: (line) => log.info(line),
    });
  }
  if (config.AGENT_RUNTIME === 'docker') {
    const log = logger.child({ component: 'agent-runtime', runtime: 'docker' });
    return new DockerAgentRuntime({
      endpoint: dockerEndpoint({ host: config.DOCKER_HOST, tlsVerify: config.DOCKER_TLS_VERIFY, certPath: config.DOCKER_CERT_PATH }),
      image: config.RUNTIME_DOCKER_IMAGE,
      network: config.AGENT_DOCKER_NETWORK ?? null,
      cpus: config.AGENT_DOCKER_CPUS,
      testHooks: config.RUNTIME_TEST_HOOKS === '1',
      startTimeoutMs: config.RUNTIME_START_TIMEOUT_MS,
      stopTimeoutMs: config.RUNTIME_STOP_TIMEOUT_MS,
      requestTimeoutMs: config.RUNTIME_REQUEST_TIMEOUT_MS,
      pollIntervalMs: config.RUNTIME_WATCHDOG_INTERVAL_MS,
      log: (line) => log.info(line),
    });
  }
  const isRoot = process.getuid?.() === 0;
  const uidRange = isRoot ? config.RUNTIME_UID_RANGE : null;
  const runAs = isRoot && !uidRange && config.RUNTIME_RUN_AS_USER !== '' ? osUser(config.RUNTIME_RUN_AS_USER) : null;
  if (isRoot && !uidRange && !runAs) logger.warn('agent runtimes run as root: set RUNTIME_UID_RANGE (or RUNTIME_RUN_AS_USER) so they do not');
  if (isRoot && !uidRange && runAs) logger.warn('agent runtimes share one uid (RUNTIME_RUN_AS_USER): one instance can signal or inspect another; set RUNTIME_UID_RANGE');
  if (!isRoot) {
    // No uid can be switched to: the programs run as we do (README, "Agent hosts and the service's secrets").
    logger.warn('agent runtimes run under the service\'s own uid: they can read its files (DATA_DIR/secrets.json) and /proc/<pid>/environ; run the service as root or use AGENT_RUNTIME=docker to keep them apart');
  }
  const log = logger.child({ component: 'agent-runtime' });
  return new ProcessAgentRuntime({
    startTimeoutMs: config.RUNTIME_START_TIMEOUT_MS,
    stopTimeoutMs: config.RUNTIME_STOP_TIMEOUT_MS,
    requestTimeoutMs: config.RUNTIME_REQUEST_TIMEOUT_MS,
    watchdogIntervalMs: config.RUNTIME_WATCHDOG_INTERVAL_MS,
    testHooks: config.RUNTIME_TEST_HOOKS === '1',
    serviceCalls: answersRuntimeCallsHere(config) ? serviceCalls : null,
    runAs,
    uidRange,
    log: (line) => log.info(line),
  });
}

/**
 * Whether this process answers its programs' service calls itself (RUNTIME_SERVICE_CALLS). `auto`:
 * when it serves the API too (SERVICE_ROLE=all: the same process, the same configuration), or is a
 * worker with an AI provider of its own; a worker without one leaves the calls to the api
 * processes over HTTP, which have what the calls need (a worker always shares ENCRYPTION_KEY, so
 * BYOK keys would open here too, but the platform's providers would not answer).
 */
export function answersRuntimeCallsHere(config: Pick<RuntimeConfig, 'RUNTIME_SERVICE_CALLS' | 'SERVICE_ROLE' | 'OPENROUTER_API_KEY' | 'OPENAI_API_KEY' | 'ANTHROPIC_API_KEY' | 'GOOGLE_API_KEY' | 'OLLAMA_BASE_URL'>): boolean {
  if (config.RUNTIME_SERVICE_CALLS !== 'auto') return config.RUNTIME_SERVICE_CALLS === 'ipc';
  return config.SERVICE_ROLE === 'all' || configuredAiProviders(config).length > 0;
}
