import { inject, injectable } from 'tsyringe';
import { configFits, type Agent, type AgentConfigObject } from '../../domain/agents/agent.js';
import type { Instance } from '../../domain/agents/instance.js';
import type { Actor } from '../auth/actor.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import type { AgentMessage } from '../ports/agent-message-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';

/** The caller's agents, oldest first. */
@injectable()
export class ListAgents {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<'agents'>) {}

  execute(actor: Actor): Promise<Agent[]> {
    return this.uow.asUser(actor.userId, (s) => s.agents.list());
  }
}

/** One of the caller's agents with the instance hosting it (null before the provision job made it); another user's is 404. */
@injectable()
export class GetAgent {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<'agents' | 'instances'>) {}

  async execute(actor: Actor, agentId: string): Promise<{ agent: Agent; instance: Instance | null }> {
    const found = await this.uow.asUser(actor.userId, async (s) => {
      const agent = await s.agents.get(agentId);
      return agent ? { agent, instance: await s.instances.get() } : null;
    });
    if (!found) throw new NotFoundError('Agent');
    return found;
  }
}

/** PUT /api/agents/:id/config: the object replaces the config (at most 64 KB). */
@injectable()
export class ReplaceAgentConfig {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<'agents'>) {}

  async execute(actor: Actor, agentId: string, config: unknown): Promise<AgentConfigObject> {
    if (!configFits(config)) throw new InvalidInputError('VALIDATION_ERROR', 'The config must be a JSON object of at most 64 KB');
    const replaced = await this.uow.asUser(actor.userId, (s) => s.agents.replaceConfig(agentId, config));
    if (!replaced) throw new NotFoundError('Agent');
    return config;
  }
}

/** A page of one of the caller's agents' messages, newest first; another user's agent is 404. */
@injectable()
export class ListAgentMessages {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<'agents' | 'agentMessages'>) {}

  async execute(actor: Actor, agentId: string, page: { limit: number; offset: number }): Promise<{ messages: AgentMessage[]; total: number }> {
    const found = await this.uow.asUser(actor.userId, async (s) => ((await s.agents.get(agentId)) ? s.agentMessages.page(agentId, page.limit, page.offset) : null));
    if (!found) throw new NotFoundError('Agent');
    return found;
  }
}
