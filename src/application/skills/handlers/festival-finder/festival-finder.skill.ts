import { inject, injectable } from 'tsyringe';
import { EVENT_SEARCH, type EventSearch } from '../../../ports/event-search.port.js';
import type { SkillHandler } from '../../skill-handler.js';
import { searchAction } from './search.action.js';

/** festival-finder: spec "Known request shapes" `{action: "search", genre, country, maxPrice}`. */
@injectable()
export class FestivalFinderSkill implements SkillHandler {
  readonly slug = 'festival-finder';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(EVENT_SEARCH) search: EventSearch) {
    this.actions = [searchAction({ search })];
  }
}
