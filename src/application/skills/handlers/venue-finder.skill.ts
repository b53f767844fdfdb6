import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { EVENT_SEARCH, type EventSearch } from '../../ports/event-search.port.js';
import type { SkillHandler } from '../skill-handler.js';
import { defineAction, nonNegative, shortText } from './define-action.js';

/** venue-finder: spec "Known request shapes" `{action: "search", city, type, capacity, maxPrice}`. */
@injectable()
export class VenueFinderSkill implements SkillHandler {
  readonly slug = 'venue-finder';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(EVENT_SEARCH) search: EventSearch) {
    this.actions = [
      defineAction({
        name: 'search',
        description: 'Search venues in a city, optionally by type, minimum capacity and maximum price.',
        capabilities: ['network'],
        input: z.strictObject({ action: z.literal('search'), city: shortText(), type: shortText().optional(), capacity: z.number().int().min(1).max(1_000_000).optional(), maxPrice: nonNegative().optional() }),
        async run(ctx, { city, type, capacity, maxPrice }) {
          ctx.requireCapability('network');
          return { venues: await search.searchVenues({ city, type, capacity, maxPrice }, ctx.signal) };
        },
      }),
    ];
  }
}
