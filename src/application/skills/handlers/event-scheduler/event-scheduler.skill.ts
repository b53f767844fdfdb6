import { inject, injectable } from 'tsyringe';
import { UNIT_OF_WORK, type UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { scheduleAction } from './schedule.action.js';
import { listAction } from './list.action.js';

/** event-scheduler: stores the user's events (when, and the channels to announce them on) and lists them. */
@injectable()
export class EventSchedulerSkill implements SkillHandler {
  readonly slug = 'event-scheduler';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<SkillsUserScope, 'scheduledEvents'>) {
    this.actions = [
      scheduleAction({ uow }),
      listAction({ uow }),
    ];
  }
}
