import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { assertKeyMayUse } from '../auth/key-access.js';
import { NotFoundError } from '../errors.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';

/**
 * DELETE /api/agents/:id/schedules/:scheduleId: the schedule and its runs; a tick being sent at
 * that moment either committed before (its message stays in the history) or finds nothing to
 * claim. Another user's agent, or a schedule not of this agent, is 404.
 */
@injectable()
export class DeleteAgentSchedule {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agentSchedules'>) {}

  async execute(actor: Pick<Actor, 'userId'> & Partial<Pick<Actor, 'credential'>>, agentId: string, scheduleId: string): Promise<void> {
    if (actor.credential) assertKeyMayUse({ credential: actor.credential }, `agent/${agentId}`);
    const removed = await this.uow.asUser(actor.userId, (s) => s.agentSchedules.remove(agentId, scheduleId));
    if (!removed) throw new NotFoundError('Schedule');
  }
}
