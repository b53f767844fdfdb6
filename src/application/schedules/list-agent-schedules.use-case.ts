import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { assertKeyMayUse } from '../auth/key-access.js';
import { NotFoundError } from '../errors.js';
import type { AgentSchedule } from '../ports/agent-schedule-repository.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';

/** GET /api/agents/:id/schedules: the agent's schedules, oldest first; another user's agent is 404. */
@injectable()
export class ListAgentSchedules {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentSchedules'>) {}

  async execute(actor: Pick<Actor, 'userId'> & Partial<Pick<Actor, 'credential'>>, agentId: string): Promise<AgentSchedule[]> {
    if (actor.credential) assertKeyMayUse({ credential: actor.credential }, `agent/${agentId}`);
    const found = await this.uow.asUser(actor.userId, async (s) => ((await s.agents.get(agentId)) ? s.agentSchedules.listForAgent(agentId) : null));
    if (!found) throw new NotFoundError('Agent');
    return found;
  }
}
