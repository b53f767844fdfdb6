import { inject, injectable } from 'tsyringe';
import { UNIT_OF_WORK, type UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { submitAction } from './submit.action.js';
import { listAction } from './list.action.js';

/**
 * demo-submitter: records the user's demo submissions (title, artist, optionally the label and a
 * link to the audio). Nothing is sent to a label: no label intake is integrated, so a submission
 * is stored with status `submitted` for the user to follow up.
 */
@injectable()
export class DemoSubmitterSkill implements SkillHandler {
  readonly slug = 'demo-submitter';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<SkillsUserScope, 'demos'>) {
    this.actions = [
      submitAction({ uow }),
      listAction({ uow }),
    ];
  }
}
