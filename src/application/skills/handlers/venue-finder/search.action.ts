import { z } from 'zod';
import type { EventSearch } from '../../../ports/event-search.port.js';
import { defineAction, nonNegative, shortText } from '../define-action.js';

/** The `search` action of venue-finder. */
export const searchAction = ({ search }: { search: EventSearch }) =>
  defineAction({
    name: 'search',
    description: 'Search venues in a city, optionally by type, minimum capacity and maximum price.',
    capabilities: ['network'],
    input: z.strictObject({ action: z.literal('search'), city: shortText(), type: shortText().optional(), capacity: z.number().int().min(1).max(1_000_000).optional(), maxPrice: nonNegative().optional() }),
    async run(ctx, { city, type, capacity, maxPrice }) {
      ctx.requireCapability('network');
      return { venues: await search.searchVenues({ city, type, capacity, maxPrice }, ctx.signal) };
    },
  });
