import { inject, injectable } from 'tsyringe';
import { UNIT_OF_WORK, type UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { text } from '../skill-inputs.js';
import { addAction } from './add.action.js';
import { getAction } from './get.action.js';
import { listAction } from './list.action.js';

/** notes-workspace: the user's stored notes: add, get, and list (optionally matching a text). */
@injectable()
export class NotesWorkspaceSkill implements SkillHandler {
  readonly slug = 'notes-workspace';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<SkillsUserScope, 'notes'>) {
    this.actions = [
      addAction({ uow }),
      getAction({ uow }),
      listAction({ uow }),
    ];
  }
}
