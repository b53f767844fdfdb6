import { z } from 'zod';
import type { EventSearch } from '../../../ports/event-search.port.js';
import { defineAction, nonNegative, shortText } from '../define-action.js';

/** The `search` action of festival-finder. */
export const searchAction = ({ search }: { search: EventSearch }) =>
  defineAction({
    name: 'search',
    description: 'Search festivals, optionally by genre, country and maximum ticket price.',
    capabilities: ['network'],
    input: z.strictObject({ action: z.literal('search'), genre: shortText().optional(), country: shortText().optional(), maxPrice: nonNegative().optional() }),
    async run(ctx, { genre, country, maxPrice }) {
      ctx.requireCapability('network');
      return { festivals: await search.searchFestivals({ genre, country, maxPrice }, ctx.signal) };
    },
  });
