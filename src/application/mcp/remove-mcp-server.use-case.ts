import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { McpUserScope } from '../ports/scopes/mcp-scope.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';

/** DELETE /api/agents/:id/mcp-servers/:serverId: the server and its sealed headers are gone; another user's agent or no such server: 404. */
@injectable()
export class RemoveMcpServer {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<McpUserScope, 'agents' | 'mcpServers'>) {}

  execute(actor: Actor, agentId: string, serverId: string): Promise<void> {
    return this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.agents.get(agentId))) throw new NotFoundError('Agent');
      if (!(await s.mcpServers.remove(agentId, serverId))) throw new NotFoundError('MCP server');
    });
  }
}
