import { inject, injectable } from 'tsyringe';
import { UNIT_OF_WORK, type UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { recordAction } from './record.action.js';
import { totalAction } from './total.action.js';
import { listAction } from './list.action.js';

/** royalty-tracker: royalty entries the user records (source, amount, optional period); `total` sums them exactly in cents. */
@injectable()
export class RoyaltyTrackerSkill implements SkillHandler {
  readonly slug = 'royalty-tracker';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<SkillsUserScope, 'royalties'>) {
    this.actions = [
      recordAction({ uow }),
      totalAction({ uow }),
      listAction({ uow }),
    ];
  }
}
