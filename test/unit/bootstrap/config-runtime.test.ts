import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/bootstrap/config.js';
import { answersRuntimeCallsHere, createAgentRuntime } from '../../../src/bootstrap/create-agent-runtime.js';

const base = {
  NODE_ENV: 'test',
  JWT_SECRET: 'x'.repeat(40),
  COOKIE_SECRET: 'y'.repeat(40),
  ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
};

describe('agent runtime configuration', () => {
  it('when nothing is set, then the process runtime runs with its defaults, each instance under its own uid when root', () => {
    const c = loadConfig(base);
    expect(c).toMatchObject({
      AGENT_RUNTIME: 'process',
      RUNTIME_START_TIMEOUT_MS: 15_000,
      RUNTIME_STOP_TIMEOUT_MS: 5_000,
      RUNTIME_REQUEST_TIMEOUT_MS: 120_000,
      RUNTIME_WATCHDOG_INTERVAL_MS: 1_000,
      RUNTIME_SERVICE_CALLS: 'auto',
      RUNTIME_RUN_AS_USER: 'nobody',
      RUNTIME_UID_RANGE: { first: 1_900_000_000, last: 1_900_065_535 },
    });
    expect(createAgentRuntime(c, pino({ level: 'silent' })).kind).toBe('process');
  });

  it('when RUNTIME_SERVICE_CALLS is auto, then the programs\' calls are answered here with SERVICE_ROLE=all or on a worker with a provider of its own, else over HTTP', () => {
    expect(answersRuntimeCallsHere(loadConfig(base))).toBe(true);
    expect(answersRuntimeCallsHere(loadConfig({ ...base, SERVICE_ROLE: 'worker' }))).toBe(false);
    expect(answersRuntimeCallsHere(loadConfig({ ...base, SERVICE_ROLE: 'worker', OPENROUTER_API_KEY: 'sk-or-x' }))).toBe(true);
    expect(answersRuntimeCallsHere(loadConfig({ ...base, SERVICE_ROLE: 'worker', OPENROUTER_API_KEY: 'sk-or-x', RUNTIME_SERVICE_CALLS: 'http' }))).toBe(false);
    expect(answersRuntimeCallsHere(loadConfig({ ...base, RUNTIME_SERVICE_CALLS: 'http' }))).toBe(false);
    expect(answersRuntimeCallsHere(loadConfig({ ...base, SERVICE_ROLE: 'worker', RUNTIME_SERVICE_CALLS: 'ipc' }))).toBe(true);
  });

  it('when a value is bad, then start-up stops naming it', () => {
    expect(() => loadConfig({ ...base, AGENT_RUNTIME: 'vm' })).toThrow(/AGENT_RUNTIME/);
    expect(() => loadConfig({ ...base, RUNTIME_WATCHDOG_INTERVAL_MS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, RUNTIME_SERVICE_CALLS: 'tcp' })).toThrow(/RUNTIME_SERVICE_CALLS/);
    for (const range of ['1000-2000', '200000', '300000-200000', '200000-4294967295', 'nobody']) {
      expect(() => loadConfig({ ...base, RUNTIME_UID_RANGE: range })).toThrow(/^Invalid configuration: RUNTIME_UID_RANGE: /);
    }
    expect(loadConfig({ ...base, RUNTIME_UID_RANGE: ' 200000-200009 ' }).RUNTIME_UID_RANGE).toEqual({ first: 200_000, last: 200_009 });
    expect(loadConfig({ ...base, RUNTIME_UID_RANGE: 'off' }).RUNTIME_UID_RANGE).toBeNull();
  });

  it.runIf(process.getuid?.() === 0)('when root, the uid range off and the run-as user does not exist, then creating the runtime fails naming it', () => {
    expect(() => createAgentRuntime(loadConfig({ ...base, RUNTIME_RUN_AS_USER: 'no-such-user-here' }), pino({ level: 'silent' }))).not.toThrow();
    const c = loadConfig({ ...base, RUNTIME_UID_RANGE: 'off', RUNTIME_RUN_AS_USER: 'no-such-user-here' });
    expect(() => createAgentRuntime(c, pino({ level: 'silent' }))).toThrow(/no-such-user-here/);
  });

  it('when the docker runtime is configured, then DOCKER_HOST, the TLS settings, the network and the CPU cap are read as the docker CLI reads them', () => {
    const c = loadConfig({ ...base, AGENT_RUNTIME: 'docker' });
    expect(c).toMatchObject({ DOCKER_HOST: 'unix:///var/run/docker.sock', DOCKER_TLS_VERIFY: false, AGENT_DOCKER_CPUS: 1 });
    expect(c.AGENT_DOCKER_NETWORK).toBeUndefined();
    expect(loadConfig({ ...base, DOCKER_TLS_VERIFY: '1' }).DOCKER_TLS_VERIFY).toBe(true);
    expect(loadConfig({ ...base, DOCKER_TLS_VERIFY: '' }).DOCKER_TLS_VERIFY).toBe(false);
    expect(() => loadConfig({ ...base, AGENT_DOCKER_CPUS: '0' })).toThrow(/AGENT_DOCKER_CPUS/);
    // TLS without the client's files: creating the runtime fails naming the missing file
    const tls = loadConfig({ ...base, AGENT_RUNTIME: 'docker', DOCKER_HOST: 'tcp://127.0.0.1:2376', DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: '/nonexistent/certs' });
    expect(() => createAgentRuntime(tls, pino({ level: 'silent' }))).toThrow(/\/nonexistent\/certs\/ca\.pem/);
  });

  it('when the swarm runtime is configured, then the connect-in listener, its URL, the network, the constraints and the CPU reservation are read; a listener that is not host:port is refused', async () => {
    const c = loadConfig({ ...base, AGENT_RUNTIME: 'swarm' });
    expect(c).toMatchObject({ AGENT_RUNTIME: 'swarm', AGENT_SWARM_CONNECT_LISTEN: '0.0.0.0:7071', AGENT_SWARM_CONSTRAINTS: [], AGENT_SWARM_CPU_RESERVATION: 0.1 });
    expect(c.AGENT_SWARM_CONNECT_URL).toBeUndefined();
    expect(c.AGENT_SWARM_NETWORK).toBeUndefined();
    const set = loadConfig({
      ...base,
      AGENT_RUNTIME: 'swarm',
      AGENT_SWARM_CONNECT_LISTEN: '[::1]:0',
      AGENT_SWARM_CONNECT_URL: 'http://worker-1.internal:7071',
      AGENT_SWARM_NETWORK: 'agents',
      AGENT_SWARM_CONSTRAINTS: ' node.labels.agents==yes , node.role==worker ,',
      AGENT_SWARM_CPU_RESERVATION: '0.25',
    });
    expect(set).toMatchObject({ AGENT_SWARM_CONNECT_URL: 'http://worker-1.internal:7071', AGENT_SWARM_NETWORK: 'agents', AGENT_SWARM_CONSTRAINTS: ['node.labels.agents==yes', 'node.role==worker'], AGENT_SWARM_CPU_RESERVATION: 0.25 });
    for (const listen of ['7071', 'host', 'a b:1', 'host:port']) expect(() => loadConfig({ ...base, AGENT_SWARM_CONNECT_LISTEN: listen })).toThrow(/AGENT_SWARM_CONNECT_LISTEN/);
    expect(() => loadConfig({ ...base, AGENT_SWARM_CONNECT_URL: 'ftp://x' })).toThrow(/AGENT_SWARM_CONNECT_URL/);
    // the runtime is made from it (nothing is dialled or listened on until the first start)
    const runtime = createAgentRuntime(set, pino({ level: 'silent' }));
    expect(runtime.kind).toBe('swarm');
    await runtime.close();
  });

  it('when RUNTIME_TEST_HOOKS=1 outside NODE_ENV=test, then start-up refuses it: no service in use lets an agent misbehave on demand', () => {
    expect(loadConfig({ ...base, RUNTIME_TEST_HOOKS: '1' }).RUNTIME_TEST_HOOKS).toBe('1');
    for (const NODE_ENV of ['production', 'development']) {
      expect(() => loadConfig({ ...base, NODE_ENV, ALLOW_UNSAFE_DEFAULTS: 'true', RUNTIME_TEST_HOOKS: '1' })).toThrow(/RUNTIME_TEST_HOOKS: only with NODE_ENV=test/);
    }
  });
});
