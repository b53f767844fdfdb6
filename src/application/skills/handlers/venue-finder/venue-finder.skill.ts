import { inject, injectable } from 'tsyringe';
import { EVENT_SEARCH, type EventSearch } from '../../../ports/event-search.port.js';
import type { SkillHandler } from '../../skill-handler.js';
import { searchAction } from './search.action.js';

/** venue-finder: spec "Known request shapes" `{action: "search", city, type, capacity, maxPrice}`. */
@injectable()
export class VenueFinderSkill implements SkillHandler {
  readonly slug = 'venue-finder';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(EVENT_SEARCH) search: EventSearch) {
    this.actions = [searchAction({ search })];
  }
}
