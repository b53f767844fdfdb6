import { offeredTools } from '../../domain/mcp/mcp-server.js';
import type { ToolDefinition } from '../ports/ai-provider.port.js';
import type { McpServerTools } from '../ports/mcp-server-repository.port.js';

const DESCRIPTION_MAX = 1_000;

/**
 * An agent's MCP tools for one answer (decision 0441): for each of its servers, in the order they
 * were added, the tools its last listing named that its allowlist permits, under their offered
 * names (`mcp__<server>__<tool>`), with the server's own input schema. The servers come with the
 * claimed message's context, read by the claim's own statement (decision 0479): no read of its own.
 */
export function mcpToolOffers(servers: readonly McpServerTools[]): ToolDefinition[] {
  return servers.flatMap((server) =>
    offeredTools(server.name, server.tools, server.allowedTools).map(({ offered, tool }) => ({
      name: offered,
      description: `${tool.description ? `${tool.description} ` : ''}(tool ${tool.name} of the MCP server ${server.name})`.slice(0, DESCRIPTION_MAX),
      parameters: parametersOf(tool.inputSchema),
    })),
  );
}

/** The server's input schema as an object schema, without the `$schema` key some providers refuse. */
function parametersOf(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema ?? {};
  return { ...rest, type: 'object', properties: (rest.properties as Record<string, unknown> | undefined) ?? {} };
}
