import { inject, injectable } from 'tsyringe';
import { configFits, type AgentConfigObject } from '../../domain/agents/agent.js';
import type { Actor } from '../auth/actor.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** PUT /api/agents/:id/config: the object replaces the config (at most 64 KB). */
@injectable()
export class ReplaceAgentConfig {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents'>) {}

  async execute(actor: Actor, agentId: string, config: unknown): Promise<AgentConfigObject> {
    if (!configFits(config)) throw new InvalidInputError('VALIDATION_ERROR', 'The config must be a JSON object of at most 64 KB', { details: [{ path: 'body', message: 'must be a JSON object of at most 64 KB' }] });
    const replaced = await this.uow.asUser(actor.userId, (s) => s.agents.replaceConfig(agentId, config));
    if (!replaced) throw new NotFoundError('Agent');
    return config;
  }
}
