import { inject, injectable } from 'tsyringe';
import type { Instance } from '../../domain/agents/instance.js';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { ownedInstance } from './instance-access.js';

/** The instance's stored details (owner or admin; anyone else 403; none yet 404). */
@injectable()
export class GetInstance {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'instances'>) {}

  async execute(actor: Actor, userId: string): Promise<Instance> {
    return (await ownedInstance(this.uow, actor, userId)).instance;
  }
}
