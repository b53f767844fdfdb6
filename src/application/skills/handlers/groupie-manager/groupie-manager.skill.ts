import { inject, injectable } from 'tsyringe';
import { UNIT_OF_WORK, type UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { addFanAction } from './add-fan.action.js';
import { listAction } from './list.action.js';
import { segmentAction } from './segment.action.js';

/** groupie-manager: the user's stored fans (`add_fan`, `list`), segmented by engagement (domain/skills/fan-segments.ts). */
@injectable()
export class GroupieManagerSkill implements SkillHandler {
  readonly slug = 'groupie-manager';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<SkillsUserScope, 'fans'>) {
    this.actions = [
      addFanAction({ uow }),
      listAction({ uow }),
      segmentAction({ uow }),
    ];
  }
}
