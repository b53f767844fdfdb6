import { inject, injectable } from 'tsyringe';
import { UNVERIFIED, type VerificationRecord } from '../../domain/verification/verification.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** GET /api/agents/:id/verify: the current record, or the unverified one. */
@injectable()
export class GetAgentVerification {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentVerifications'>) {}

  async execute(actor: Actor, agentId: string): Promise<VerificationRecord> {
    return this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.agents.get(agentId))) throw new NotFoundError('Agent');
      return (await s.agentVerifications.get(agentId)) ?? UNVERIFIED;
    });
  }
}
