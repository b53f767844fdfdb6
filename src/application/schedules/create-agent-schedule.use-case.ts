import { inject, injectable } from 'tsyringe';
import { isSubscribed } from '../../domain/billing/subscription.js';
import { schedulesPerAgent } from '../../domain/billing/schedule-allowance.js';
import { cronShapeProblem, DEFAULT_SCHEDULE_TIMEZONE } from '../../domain/schedules/agent-schedule.js';
import { ScheduleLimitReachedError, SubscriptionRequiredForSchedulesError } from '../../domain/schedules/schedule.errors.js';
import type { Actor } from '../auth/actor.js';
import { assertKeyMayUse } from '../auth/key-access.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import type { AgentSchedule } from '../ports/agent-schedule-repository.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { CRON_CALENDAR, type CronCalendar } from '../ports/cron-calendar.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';

export interface NewScheduleInput {
  agentId: string;
  cron: string;
  timezone?: string;
  content: string;
}

const invalid = (field: 'cron' | 'timezone', reason: string) =>
  new InvalidInputError('VALIDATION_ERROR', `${field} ${reason}`, { details: [{ path: `body/${field}`, message: reason }] });

/**
 * POST /api/agents/:id/schedules (CONTRACT.md "scheduled runs"). The cron (five fields or an alias,
 * decision 0445) and the IANA timezone are read by the calendar before anything is stored: either
 * wrong is 400 VALIDATION_ERROR naming the field, nothing stored. Another user's agent is 404; an
 * API key whose models list does not name the agent (`agent/<id>`) is 403, as for its messages.
 * The plan bounds the agent's schedules (src/domain/billing/schedule-allowance.ts): 402 without a
 * subscribed plan, 429 SCHEDULE_LIMIT_REACHED at the bound, counted under a per-agent lock.
 */
@injectable()
export class CreateAgentSchedule {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentSchedules' | 'subscriptions'>,
    @inject(CRON_CALENDAR) private readonly calendar: CronCalendar,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(actor: Pick<Actor, 'userId' | 'role'> & Partial<Pick<Actor, 'credential'>>, input: NewScheduleInput): Promise<AgentSchedule> {
    if (actor.credential) assertKeyMayUse({ credential: actor.credential }, `agent/${input.agentId}`);
    const shape = cronShapeProblem(input.cron);
    if (shape) throw invalid('cron', shape);
    const reading = this.calendar.nextAfter(input.cron, input.timezone ?? DEFAULT_SCHEDULE_TIMEZONE, this.clock.now());
    if (!reading.ok) throw invalid(reading.field, reading.reason);

    return this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.agents.get(input.agentId))) throw new NotFoundError('Agent');
      const plans = (await s.subscriptions.list()).flatMap((sub) => (sub.plan && isSubscribed(sub.status) ? [sub.plan] : []));
      const limit = schedulesPerAgent(plans, actor.role === 'admin');
      if (limit === null) throw new SubscriptionRequiredForSchedulesError();
      const stored = await s.agentSchedules.addWithin(
        { id: this.ids.uuid(), agentId: input.agentId, cron: input.cron.trim(), timezone: reading.timezone, content: input.content, nextRunAt: reading.next },
        limit,
      );
      if ('full' in stored) throw new ScheduleLimitReachedError(stored.full, limit);
      return stored.added;
    });
  }
}
