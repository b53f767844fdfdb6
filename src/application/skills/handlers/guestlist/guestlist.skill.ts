import { inject, injectable } from 'tsyringe';
import { UNIT_OF_WORK, type UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { createListAction } from './create-list.action.js';
import { addAction } from './add.action.js';
import { removeAction } from './remove.action.js';
import { checkInAction } from './check-in.action.js';
import { listAction } from './list.action.js';

/** guestlist: the user's guestlists with a capacity; guests are added while places are free, removed, and checked in once. */
@injectable()
export class GuestlistSkill implements SkillHandler {
  readonly slug = 'guestlist';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<SkillsUserScope, 'guestlists'>) {
    this.actions = [
      createListAction({ uow }),
      addAction({ uow }),
      removeAction({ uow }),
      checkInAction({ uow }),
      listAction({ uow }),
    ];
  }
}
