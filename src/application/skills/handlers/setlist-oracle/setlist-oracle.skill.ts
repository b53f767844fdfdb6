import { inject, injectable } from 'tsyringe';
import { UNIT_OF_WORK, type UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { addTrackAction } from './add-track.action.js';
import { listTracksAction } from './list-tracks.action.js';
import { buildAction } from './build.action.js';

/**
 * setlist-oracle: builds setlists from the user's OWN stored tracks only (`add_track`); with no
 * tracks of the genre the setlist is empty, never an invented catalog.
 */
@injectable()
export class SetlistOracleSkill implements SkillHandler {
  readonly slug = 'setlist-oracle';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<SkillsUserScope, 'tracks'>) {
    this.actions = [
      addTrackAction({ uow }),
      listTracksAction({ uow }),
      buildAction({ uow }),
    ];
  }
}
