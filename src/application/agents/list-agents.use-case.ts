import { inject, injectable } from 'tsyringe';
import type { Agent } from '../../domain/agents/agent.js';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** The caller's agents, oldest first. */
@injectable()
export class ListAgents {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents'>) {}

  execute(actor: Actor): Promise<Agent[]> {
    return this.uow.asUser(actor.userId, (s) => s.agents.list());
  }
}
