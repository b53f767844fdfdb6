import { DomainError } from '../../domain/shared/domain-error.js';
import type { Clock } from '../ports/clock.port.js';
import type { McpClient, McpTarget } from '../ports/mcp-client.port.js';
import type { McpServerCheck } from '../ports/mcp-server-repository.port.js';

/**
 * Lists a server's tools and says how it went: `ok` with the tools, or `error` with the reason
 * (the tools of an earlier check are kept: a server down for a moment still names its tools).
 * Never throws a server's failure: the outcome is stored, for the owner to see.
 */
export async function checkMcpServer(client: McpClient, clock: Clock, target: McpTarget, earlier: McpServerCheck['tools'] = []): Promise<McpServerCheck> {
  try {
    const tools = await client.listTools(target);
    return { tools, status: 'ok', statusError: null, checkedAt: clock.now() };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { tools: earlier, status: 'error', statusError: `${err.code}: ${err.message}`.slice(0, 500), checkedAt: clock.now() };
  }
}
