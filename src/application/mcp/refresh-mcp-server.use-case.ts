import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { MCP_CLIENT, type McpClient } from '../ports/mcp-client.port.js';
import type { McpServerRecord } from '../ports/mcp-server-repository.port.js';
import type { McpUserScope } from '../ports/scopes/mcp-scope.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import { openMcpHeaders } from './mcp-headers.js';
import { checkMcpServer } from './mcp-server-check.js';

/**
 * POST /api/agents/:id/mcp-servers/:serverId/refresh: lists the server's tools again (outside any
 * transaction) and stores the outcome as its `status`, a failure included (the tools of the last
 * good listing are kept). Another user's agent or no such server: 404.
 */
@injectable()
export class RefreshMcpServer {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<McpUserScope, 'agents' | 'mcpServers'>,
    @inject(MCP_CLIENT) private readonly client: McpClient,
    @inject(SECRET_BOX) private readonly box: SecretBox,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, agentId: string, serverId: string): Promise<McpServerRecord> {
    const server = await this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.agents.get(agentId))) throw new NotFoundError('Agent');
      return s.mcpServers.get(agentId, serverId);
    });
    if (!server) throw new NotFoundError('MCP server');
    const check = await checkMcpServer(this.client, this.clock, { url: server.url, headers: openMcpHeaders(this.box, server) }, server.tools);
    const stored = await this.uow.asUser(actor.userId, (s) => s.mcpServers.recordCheck(agentId, serverId, check));
    if (!stored) throw new NotFoundError('MCP server');
    return stored;
  }
}
