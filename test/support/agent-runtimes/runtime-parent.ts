/**
 * A supervisor process for the "supervisor dies" test: starts one runtime, prints the
 * program's pid as a JSON line, then idles until it is killed.
 */
import { ProcessAgentRuntime } from '../../../src/adapters/outbound/agent-runtimes/process/process-agent-runtime.js';
import type { UserId } from '../../../src/domain/shared/ids.js';

const userId = '00000000-0000-4000-8000-00000000000f' as UserId;
const runtime = new ProcessAgentRuntime();
await runtime.start({ userId, runtimeVersion: 'test', ramCapBytes: 512 * 2 ** 20, gatewayToken: 'parent-token', serviceUrl: 'http://127.0.0.1:9' });
process.stdout.write(`${JSON.stringify({ pid: runtime.pidOf(userId) })}\n`);
setInterval(() => undefined, 60_000);
