import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/bootstrap/config.js';
import { createAgentRuntime } from '../../../src/bootstrap/create-agent-runtime.js';

const base = {
  NODE_ENV: 'test',
  JWT_SECRET: 'x'.repeat(40),
  COOKIE_SECRET: 'y'.repeat(40),
  ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
};

describe('agent runtime configuration', () => {
  it('when nothing is set, then the process runtime runs with its defaults, as nobody when root', () => {
    const c = loadConfig(base);
    expect(c).toMatchObject({
      AGENT_RUNTIME: 'process',
      RUNTIME_START_TIMEOUT_MS: 15_000,
      RUNTIME_STOP_TIMEOUT_MS: 5_000,
      RUNTIME_REQUEST_TIMEOUT_MS: 120_000,
      RUNTIME_WATCHDOG_INTERVAL_MS: 1_000,
      RUNTIME_RUN_AS_USER: 'nobody',
    });
    expect(createAgentRuntime(c, pino({ level: 'silent' })).kind).toBe('process');
  });

  it('when a value is bad, then start-up stops naming it', () => {
    expect(() => loadConfig({ ...base, AGENT_RUNTIME: 'vm' })).toThrow(/AGENT_RUNTIME/);
    expect(() => loadConfig({ ...base, RUNTIME_WATCHDOG_INTERVAL_MS: '0' })).toThrow(ConfigError);
  });

  it.runIf(process.getuid?.() === 0)('when root and the run-as user does not exist, then creating the runtime fails naming it', () => {
    const c = loadConfig({ ...base, RUNTIME_RUN_AS_USER: 'no-such-user-here' });
    expect(() => createAgentRuntime(c, pino({ level: 'silent' }))).toThrow(/no-such-user-here/);
  });
});
