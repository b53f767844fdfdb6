import { inject, injectable } from 'tsyringe';
import { UNIT_OF_WORK, type UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { addAction } from './add.action.js';
import { listAction } from './list.action.js';

/** calendar: the user's stored calendar entries (start and end instants); `list` shows those overlapping a range. */
@injectable()
export class CalendarSkill implements SkillHandler {
  readonly slug = 'calendar';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<SkillsUserScope, 'calendar'>) {
    this.actions = [
      addAction({ uow }),
      listAction({ uow }),
    ];
  }
}
