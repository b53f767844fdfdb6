import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { EVENT_SEARCH, type EventSearch } from '../../ports/event-search.port.js';
import type { SkillHandler } from '../skill-handler.js';
import { defineAction, nonNegative, shortText } from './define-action.js';

/** festival-finder: spec "Known request shapes" `{action: "search", genre, country, maxPrice}`. */
@injectable()
export class FestivalFinderSkill implements SkillHandler {
  readonly slug = 'festival-finder';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(EVENT_SEARCH) search: EventSearch) {
    this.actions = [
      defineAction({
        name: 'search',
        description: 'Search festivals, optionally by genre, country and maximum ticket price.',
        capabilities: ['network'],
        input: z.strictObject({ action: z.literal('search'), genre: shortText().optional(), country: shortText().optional(), maxPrice: nonNegative().optional() }),
        async run(ctx, { genre, country, maxPrice }) {
          ctx.requireCapability('network');
          return { festivals: await search.searchFestivals({ genre, country, maxPrice }, ctx.signal) };
        },
      }),
    ];
  }
}
