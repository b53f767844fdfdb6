import { inject, injectable } from 'tsyringe';
import { offeredTools } from '../../domain/mcp/mcp-server.js';
import type { ToolDefinition } from '../ports/ai-provider.port.js';
import type { McpSystemScope } from '../ports/scopes/mcp-scope.port.js';
import { UNIT_OF_WORK, type SystemStatements } from '../ports/unit-of-work.port.js';

const DESCRIPTION_MAX = 1_000;

/**
 * An agent's MCP tools for one answer (decision 0441): for each of its servers, in the order they
 * were added, the tools its last listing named that its allowlist permits, under their offered
 * names (`mcp__<server>__<tool>`), with the server's own input schema. One statement outside any
 * transaction (one round trip), as the system: the mailbox worker answers for every user.
 */
@injectable()
export class McpToolOffers {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: SystemStatements<McpSystemScope, 'agentMcpServers'>) {}

  async forAgent(agentId: string): Promise<ToolDefinition[]> {
    const servers = await this.uow.statementsAsSystem((s) => s.agentMcpServers.listForAgent(agentId));
    return servers.flatMap((server) =>
      offeredTools(server.name, server.tools, server.allowedTools).map(({ offered, tool }) => ({
        name: offered,
        description: `${tool.description ? `${tool.description} ` : ''}(tool ${tool.name} of the MCP server ${server.name})`.slice(0, DESCRIPTION_MAX),
        parameters: parametersOf(tool.inputSchema),
      })),
    );
  }
}

/** The server's input schema as an object schema, without the `$schema` key some providers refuse. */
function parametersOf(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema ?? {};
  return { ...rest, type: 'object', properties: (rest.properties as Record<string, unknown> | undefined) ?? {} };
}
