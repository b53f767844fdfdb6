import { z } from 'zod';
import type { MusicCatalog } from '../../../ports/music-catalog.port.js';
import { defineAction, shortText } from '../define-action.js';

/** The `search` action of track-archaeologist. */
export const searchAction = ({ catalog }: { catalog: MusicCatalog }) =>
  defineAction({
    name: 'search',
    description: 'Search tracks by tempo (BPM), genre and mood.',
    capabilities: ['network'],
    input: z.strictObject({ action: z.literal('search'), bpm: z.number().min(20).max(400).optional(), genre: shortText().optional(), mood: shortText().optional() }),
    async run(ctx, { bpm, genre, mood }) {
      ctx.requireCapability('network');
      return { tracks: await catalog.searchTracks({ bpm, genre, mood }, ctx.signal) };
    },
  });
