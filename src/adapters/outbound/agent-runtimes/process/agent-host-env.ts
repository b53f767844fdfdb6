import type { RuntimeSpec } from '../../../../application/ports/agent-runtime.port.js';

/**
 * The program's whole environment: only what it needs, never the parent's (no DATABASE_URL,
 * JWT_SECRET, provider keys, NODE_OPTIONS). The gateway token is not here either: it travels in
 * the `init` message, so /proc/<pid>/environ holds nothing worth reading. Node's `fork` adds its
 * own NODE_CHANNEL_* variables for the IPC channel.
 */
export function childEnv(spec: RuntimeSpec, o: { requestTimeoutMs: number; testHooks: boolean; relayed?: boolean }): NodeJS.ProcessEnv {
  return {
    // the one inherited value: where executables are (nothing secret)
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    AGENT_HOST_USER_ID: spec.userId,
    AGENT_HOST_SERVICE_URL: spec.serviceUrl,
    AGENT_HOST_RUNTIME_VERSION: spec.runtimeVersion,
    AGENT_HOST_REQUEST_TIMEOUT_MS: String(o.requestTimeoutMs),
    ...(o.testHooks ? { AGENT_HOST_TEST_HOOKS: '1' } : {}),
    // its service calls travel over the IPC channel and are answered in the supervisor's process
    ...(o.relayed ? { AGENT_HOST_SERVICE_VIA: 'supervisor' } : {}),
  };
}
