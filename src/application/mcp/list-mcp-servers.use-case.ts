import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { McpServerRecord } from '../ports/mcp-server-repository.port.js';
import type { McpUserScope } from '../ports/scopes/mcp-scope.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';

/** GET /api/agents/:id/mcp-servers: the agent's servers in the order they were added; another user's agent: 404. */
@injectable()
export class ListMcpServers {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<McpUserScope, 'agents' | 'mcpServers'>) {}

  execute(actor: Actor, agentId: string): Promise<McpServerRecord[]> {
    return this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.agents.get(agentId))) throw new NotFoundError('Agent');
      return s.mcpServers.listForAgent(agentId);
    });
  }
}
