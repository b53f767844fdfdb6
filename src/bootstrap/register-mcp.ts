import type { DependencyContainer } from 'tsyringe';
import { SdkMcpClient } from '../adapters/outbound/mcp/sdk-mcp-client.js';
import { AddMcpServer } from '../application/mcp/add-mcp-server.use-case.js';
import { CallMcpTool } from '../application/mcp/call-mcp-tool.use-case.js';
import { ListMcpServers } from '../application/mcp/list-mcp-servers.use-case.js';
import { RefreshMcpServer } from '../application/mcp/refresh-mcp-server.use-case.js';
import { RemoveMcpServer } from '../application/mcp/remove-mcp-server.use-case.js';
import { MCP_CLIENT } from '../application/ports/mcp-client.port.js';
import { MCP_SETTINGS } from '../application/ports/mcp-settings.port.js';
import type { Config } from './config.js';

/** Agents' MCP servers (decisions 0440, 0441): the SDK's client, its policy, the use cases. Needs SECRET_BOX first. */
export function registerMcp(c: DependencyContainer, config: Config): void {
  c.register(MCP_SETTINGS, { useValue: { allowPrivate: config.MCP_ALLOW_PRIVATE_TARGETS, resultMaxChars: config.MCP_RESULT_MAX_CHARS } });
  c.register(MCP_CLIENT, {
    useValue: new SdkMcpClient({ allowPrivate: config.MCP_ALLOW_PRIVATE_TARGETS, timeoutMs: config.MCP_CALL_TIMEOUT_MS, maxResponseBytes: config.MCP_RESPONSE_MAX_BYTES }),
  });
  for (const useCase of [AddMcpServer, ListMcpServers, RemoveMcpServer, RefreshMcpServer, CallMcpTool]) c.registerSingleton(useCase as never);
}
