import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { assertKeyMayUse } from '../auth/key-access.js';
import { NotFoundError } from '../errors.js';
import type { ScheduleRun } from '../ports/agent-schedule-repository.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';

/**
 * GET /api/agents/:id/schedules/:scheduleId/runs: the schedule's last runs, newest first, sent
 * (with the message's id) or skipped (with why). A schedule not of this agent, or another user's, is 404.
 */
@injectable()
export class ListScheduleRuns {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agentSchedules'>) {}

  async execute(actor: Pick<Actor, 'userId'> & Partial<Pick<Actor, 'credential'>>, agentId: string, scheduleId: string, limit: number): Promise<ScheduleRun[]> {
    if (actor.credential) assertKeyMayUse({ credential: actor.credential }, `agent/${agentId}`);
    const runs = await this.uow.asUser(actor.userId, async (s) => {
      const mine = (await s.agentSchedules.listForAgent(agentId)).some((x) => x.id === scheduleId);
      return mine ? s.agentSchedules.listRuns(scheduleId, limit) : null;
    });
    if (!runs) throw new NotFoundError('Schedule');
    return runs;
  }
}
